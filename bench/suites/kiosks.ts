import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { sql } from 'kysely';
import { ensureInstanceSecret } from '../../src/db/instance-secret.ts';
import { createCompany } from '../../src/modules/companies/companies.service.ts';
import {
  createDevice,
  enrollKiosk,
  kioskInfo,
  setKioskPin,
} from '../../src/modules/kiosks/kiosks.service.ts';
import { createLocation } from '../../src/modules/locations/locations.service.ts';
import { newId } from '../../src/platform/ids.ts';
import { FakeClock } from '../../src/time/clock.ts';
import { sealPin } from '../../test/helpers/kiosk.ts';
import { type BenchCluster, openBenchDatabase, printCostliestStatements, timed } from '../lib/cluster.ts';
import { generateEmployees } from '../lib/generate.ts';
import { runKioskLoad } from '../lib/kiosk-load.ts';
import { startService } from '../lib/service.ts';

/**
 * Issue 40: the morning rush of a large company on shared kiosks. 200 kiosks each send a punch a second for a
 * minute (a punch is what the kiosk's screen sends: the worker's PIN, then the action), against the same punches
 * at 5 a second (the control, in the same run): p99 within 3×. Then a kiosk that was offline sends its queue of
 * 500 punches in one request: every one recorded. The service runs as production does (`jornada serve
 * --role=api`, its own process); each run starts from an empty company.
 */
const KIOSKS = Number(process.env.BENCH_KIOSKS ?? 200);
const WORKERS = Number(process.env.BENCH_KIOSK_WORKERS ?? 2_000);
const RUSH_MS = Number(process.env.BENCH_KIOSK_RUSH_MS ?? 60_000);
const IDLE_MS = Number(process.env.BENCH_KIOSK_IDLE_MS ?? 30_000);
const IDLE_RATE = 5;
const QUEUE = 500;
const TARGET_RATIO = 3;
const PIN = '482916';

function deviceKeys() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    publicJwk: publicKey.export({ format: 'jwk' }) as Record<string, unknown>,
    privateJwk: privateKey.export({ format: 'jwk' }) as JsonWebKey,
    privateKey,
  };
}

export async function kiosksSuite(cluster: BenchCluster): Promise<string[]> {
  const { db, url } = await openBenchDatabase(cluster, 'bench_kiosks');
  const clock = new FakeClock();
  const deps = { db, clock, instanceSecret: await ensureInstanceSecret(db) };
  const failures: string[] = [];
  await sql`truncate companies cascade`.execute(db);
  const company = await createCompany({ db, clock }, { name: 'Bench', tracking_start_date: '2025-01-01' });
  const tenant = { companyId: company.id };
  await generateEmployees(db, company.id, WORKERS, new Date('2025-01-01T00:00:00Z'));
  const workers = (
    await db.selectFrom('employees').select('id').where('company_id', '=', company.id).orderBy('id').execute()
  ).map((row) => row.id);
  const location = await createLocation(deps, tenant, { name: 'Almacén' });
  await timed(`${WORKERS} workers' PINs`, async () => {
    for (const worker of workers) await setKioskPin(deps, tenant, worker, PIN);
  });
  const enroll = async (name: string) => {
    const device = await createDevice(
      deps,
      { ...tenant, actor: { type: 'admin', id: newId() } },
      { name, location_id: location.id },
    );
    const keys = deviceKeys();
    const enrolled = await enrollKiosk(deps, { code: device.enrollment_code, public_key: keys.publicJwk });
    return { id: enrolled.device_id, ...keys };
  };
  // The kiosk that goes offline was enrolled two hours ago, before the punches it keeps.
  clock.advance(-2 * 3600);
  const offline = await enroll('Sin conexión');
  clock.advance(2 * 3600);
  const kiosks = await timed(`${KIOSKS} kiosks enrolled`, async () => {
    const enrolled = [];
    for (let index = 0; index < KIOSKS; index++) enrolled.push(await enroll(`Kiosko ${index + 1}`));
    return enrolled;
  });
  await sql`vacuum analyze`.execute(db);

  const service = await startService(url, 'api');
  try {
    const load = (rate: number, durationMs: number) =>
      runKioskLoad({
        origin: service.origin,
        kiosks: kiosks.map((kiosk) => ({ id: kiosk.id, privateKey: kiosk.privateJwk })),
        workers,
        pin: PIN,
        rate,
        durationMs,
        warmupMs: 3_000,
      });
    const idle = await load(IDLE_RATE, IDLE_MS);
    console.log(
      `  control, ${IDLE_RATE} punches/s: p50 ${idle.p50Ms.toFixed(1)} ms, p99 ${idle.p99Ms.toFixed(1)} ms, ${JSON.stringify(idle.statuses)}`,
    );
    await printCostliestStatements(cluster, 'bench_kiosks', { only: 'reset' });
    const rush = await load(KIOSKS, RUSH_MS);
    await printCostliestStatements(cluster, 'bench_kiosks', { title: 'the rush’s statements' });
    const ratio = rush.p99Ms / idle.p99Ms;
    console.log(
      `  rush, ${KIOSKS} kiosks at a punch a second: ${rush.perSecond.toFixed(0)} punches/s, p50 ${rush.p50Ms.toFixed(1)} ms, p99 ${rush.p99Ms.toFixed(1)} ms (${ratio.toFixed(2)}× the control; goal ≤ ${TARGET_RATIO}), ${JSON.stringify(rush.statuses)}`,
    );
    const errors = Object.entries(rush.statuses).filter(([status]) => !status.startsWith('2'));
    if (errors.length > 0)
      failures.push(`kiosk rush: answers other than 2xx: ${JSON.stringify(rush.statuses)}`);
    if (rush.perSecond < KIOSKS * 0.95) {
      failures.push(`kiosk rush: ${rush.perSecond.toFixed(0)} punches/s, below the ${KIOSKS} sent`);
    }
    if (ratio > TARGET_RATIO) failures.push(`kiosk rush: p99 ${ratio.toFixed(2)}× the control (goal ≤ 3×)`);

    // The offline kiosk's queue: 250 workers in at 07:00 and out at 07:30, two hours ago, each PIN sealed.
    const serviceKey = (await kioskInfo(deps, { ...tenant, deviceId: offline.id })).pin_seal_key;
    const madeAt = clock.now().subtract({ minutes: 110 });
    const punches: Array<{ punch: string; signature: string }> = [];
    for (let index = 0; index < QUEUE; index++) {
      const sequence = index + 1;
      const worker = workers[Math.floor(index / 2)] as string;
      const type = index % 2 === 0 ? 'in' : 'out';
      const deviceTime = madeAt
        .add({ minutes: index % 2 === 0 ? 0 : 30, seconds: Math.floor(index / 2) })
        .toString({ smallestUnit: 'second' });
      const context = [offline.id, sequence, worker, type, deviceTime].join('\n');
      const punch = JSON.stringify({
        device_id: offline.id,
        sequence,
        type,
        device_time: deviceTime,
        employee_id: worker,
        pin_sealed: await sealPin(serviceKey, PIN, context),
      });
      const signature = sign('sha256', Buffer.from(punch), {
        key: offline.privateKey,
        dsaEncoding: 'ieee-p1363',
      }).toString('base64url');
      punches.push({ punch, signature });
    }
    const sent = await timed(`a queue of ${QUEUE} punches in one request`, () =>
      signedPost(service.origin, offline, '/kiosk/api/check-ins/batch', { punches }),
    );
    const recorded = sent.body.results?.filter((result) => result.status === 'recorded').length ?? 0;
    console.log(`  ${recorded} of ${QUEUE} recorded (HTTP ${sent.status})`);
    if (sent.status !== 200 || recorded !== QUEUE) {
      failures.push(`offline queue: ${recorded} of ${QUEUE} recorded (HTTP ${sent.status})`);
    }
  } finally {
    await service.stop();
    await db.destroy();
  }
  return failures;
}

/** One request signed as a kiosk signs it. */
async function signedPost(
  origin: string,
  kiosk: { id: string; privateKey: KeyObject },
  path: string,
  body: unknown,
) {
  const payload = JSON.stringify(body);
  const counter = Date.now();
  const digest = createHash('sha256').update(payload).digest('base64url');
  const signature = sign('sha256', Buffer.from(`POST\n${path}\n${counter}\n${digest}`), {
    key: kiosk.privateKey,
    dsaEncoding: 'ieee-p1363',
  }).toString('base64url');
  const response = await fetch(`${origin}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'kiosk-device': kiosk.id,
      'kiosk-counter': String(counter),
      'kiosk-signature': signature,
    },
    body: payload,
  });
  return {
    status: response.status,
    body: (await response.json()) as { results?: Array<{ status: string }> },
  };
}
