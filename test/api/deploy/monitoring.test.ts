import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTestContext, type TestContext } from '../../helpers/context.ts';

/**
 * The operator's alerts and dashboard (issue 37): deploy/prometheus/alerts.yml and deploy/grafana/jornada.json
 * name only series that /metrics exports, every alert has a severity, a summary and a runbook that exists, and the
 * dashboard is well formed. (promtool and Grafana's validators are not on npm: this is their check here.)
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const TOKEN = 'metrics-token-for-monitoring';

type Rule = {
  alert?: string;
  expr?: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
};
const alerts = parse(readFileSync(path.join(ROOT, 'deploy/prometheus/alerts.yml'), 'utf8')) as {
  groups: Array<{ name: string; rules: Rule[] }>;
};
const dashboard = JSON.parse(readFileSync(path.join(ROOT, 'deploy/grafana/jornada.json'), 'utf8')) as {
  title: string;
  uid: string;
  panels: Array<{ id: number; title: string; targets: Array<{ expr: string; refId: string }> }>;
};

const seriesIn = (expr: string) => [...expr.matchAll(/\bjornada_[a-z_]+/g)].map((match) => match[0]);

let ctx: TestContext;
let exported: Set<string>;
beforeAll(async () => {
  ctx = await createTestContext({ metricsToken: TOKEN });
  const response = await ctx.as(TOKEN).get('/metrics');
  expect(response.statusCode).toBe(200);
  // Every family /metrics declares, and for a histogram the series Prometheus derives from it.
  exported = new Set<string>();
  for (const line of response.body.split('\n')) {
    const declared = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (!declared?.[1]) continue;
    exported.add(declared[1]);
    if (declared[2] === 'histogram') {
      for (const suffix of ['_bucket', '_count', '_sum']) exported.add(`${declared[1]}${suffix}`);
    }
  }
});
afterAll(() => ctx.close());

describe('/metrics', () => {
  it('names the release and the newest schema it knows (jornada_build_info)', async () => {
    const response = await ctx.as(TOKEN).get('/metrics');
    const version = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
    expect(response.body).toMatch(
      new RegExp(
        `^jornada_build_info\\{version="${version.replaceAll('.', '\\.')}",schema="\\d{4}_[a-z_]+"\\} 1$`,
        'm',
      ),
    );
  });
});

describe('deploy/prometheus/alerts.yml', () => {
  const rules = alerts.groups.flatMap((group) => group.rules);

  it('has the alerts an operator needs, each with a severity, a summary and a runbook that exists', () => {
    const names = rules.map((rule) => rule.alert);
    for (const needed of [
      'JornadaDatabaseUnavailable',
      'JornadaPoolWaiting',
      'JornadaWebhookQueueBehind',
      'JornadaDeliveryFailureRate',
      'JornadaReportFailures',
      'JornadaSyncLag',
      'JornadaSchemaNewer',
      'JornadaNodeDown',
      'JornadaWebhookEndpointAutoDisabled',
      'JornadaDeliveryLag',
      'JornadaCompanyQuotaNearlyUsed',
    ]) {
      expect(names).toContain(needed);
    }
    expect(new Set(names).size).toBe(names.length);
    for (const rule of rules) {
      expect(rule.expr, rule.alert).toEqual(expect.any(String));
      expect(['warning', 'critical'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toEqual(expect.any(String));
      const runbook = rule.annotations?.runbook_url ?? '';
      expect(runbook, rule.alert).toMatch(/^docs\/runbooks\/[a-z-]+\.md$/);
      expect(existsSync(path.join(ROOT, runbook)), runbook).toBe(true);
      if (rule.for !== undefined) expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
    }
  });

  it('names only series that /metrics exports', () => {
    const named = rules.flatMap((rule) => seriesIn(rule.expr ?? ''));
    expect(named.length).toBeGreaterThan(10);
    expect([...new Set(named)].filter((name) => !exported.has(name))).toEqual([]);
  });

  it('fails its own check on a series that does not exist', () => {
    expect(['jornada_no_such_series'].filter((name) => !exported.has(name))).toHaveLength(1);
  });
});

describe('deploy/grafana/jornada.json', () => {
  it('is a dashboard of panels with unique ids, each querying series that /metrics exports', () => {
    expect(dashboard).toMatchObject({ title: 'Jornada', uid: 'jornada' });
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    const named = dashboard.panels.flatMap((panel) => {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      return panel.targets.flatMap((target) => seriesIn(target.expr));
    });
    expect([...new Set(named)].filter((name) => !exported.has(name))).toEqual([]);
  });
});
