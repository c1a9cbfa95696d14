import pino from 'pino';
import { expect, it } from 'vitest';
import { backgroundJobs } from '../../src/main.ts';
import type { AppDeps } from '../../src/platform/deps.ts';
import { FakeClock } from '../../src/time/clock.ts';

const deps = (fakeClock: FakeClock | null) => ({ fakeClock }) as unknown as AppDeps;
const log = pino({ level: 'silent' });
const names = (role: 'api' | 'worker' | 'all', fakeClock: FakeClock | null) =>
  backgroundJobs(deps(fakeClock), role, log).map((job) => job.name);

it('runs the worker jobs only on worker roles, and follows the shared fake clock in every role', () => {
  expect(names('api', null)).toEqual([]);
  expect(names('worker', null)).toEqual([
    'maintenance',
    'webhook-delivery',
    'report-generation',
    'month-documents',
    'shift-notices',
    'notification-emails',
    'missed-clock-outs',
  ]);
  expect(names('all', null)).toEqual([
    'maintenance',
    'webhook-delivery',
    'report-generation',
    'month-documents',
    'shift-notices',
    'notification-emails',
    'missed-clock-outs',
  ]);
  expect(names('api', new FakeClock())).toEqual(['fake-clock-sync']);
  expect(names('worker', new FakeClock())).toEqual([
    'maintenance',
    'webhook-delivery',
    'report-generation',
    'month-documents',
    'shift-notices',
    'notification-emails',
    'missed-clock-outs',
    'fake-clock-sync',
  ]);
});
