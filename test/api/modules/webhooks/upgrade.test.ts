import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { createDb } from '../../../../src/db/database.ts';
import { migrate } from '../../../../src/db/migrator.ts';
import { claimDueDeliveries } from '../../../../src/modules/webhooks/deliveries.service.ts';
import { FrozenClock } from '../../../../src/time/clock.ts';
import { createEmptyDatabase } from '../../../helpers/database.ts';

/**
 * Migrations 0031 and 0032 change how deliveries are claimed (decision 0021). A database upgraded with deliveries
 * pending loses none: those made before 0031 keep their due time and are leased on their row; a first attempt
 * made between 0031 and 0032 (a node that ran 0031's code) is found through the record 0032 makes for it.
 */
it('claims every pending delivery across the upgrade to cursor claims', async () => {
  const database = await createEmptyDatabase();
  const db = createDb(database.url, { max: 2 });
  // After the deliveries' ids, which PostgreSQL's uuidv7 makes from its own clock.
  const clock = new FrozenClock(Temporal.Now.instant().add({ minutes: 1 }));
  const companyId = '0192f3a4-0000-7000-8000-000000000001';
  const endpointId = '0192f3a4-0000-7000-8000-000000000002';
  // Another tenant, with nothing due before the upgrade.
  const laterId = '0192f3a4-0000-7000-8000-000000000003';
  const laterEndpointId = '0192f3a4-0000-7000-8000-000000000004';
  const at = new Date('2026-11-02T09:00:00Z');
  try {
    await migrate(db, { through: '0030_sync_stamps' });
    await db.transaction().execute(async (tx) => {
      await sql`select set_config('jornada.sync_floor', 'any', true)`.execute(tx);
      for (const [company, endpoint] of [
        [companyId, endpointId],
        [laterId, laterEndpointId],
      ]) {
        await sql`insert into companies (id, name, timezone, seats, tracking_start_date, created_at, updated_at)
                  values (${company}, 'Old', 'Europe/Madrid', 5, '2026-01-01', ${at}, ${at})`.execute(tx);
        await sql`insert into webhook_endpoints (company_id, id, url, events, secret, status, created_at, updated_at)
                  values (${company}, ${endpoint}, 'https://hooks.example.com/old', '{employee.created}',
                          ${`whsec_${Buffer.alloc(32, 1).toString('base64')}`}, 'active', ${at}, ${at})`.execute(
          tx,
        );
      }
      // Before 0031: every pending delivery has a due time, one of them in flight under a lease that has ended.
      await sql`
        with made as (
          insert into events (company_id, id, type, data, created_at)
          select ${companyId}::uuid, uuidv7(), 'employee.created', '{}'::jsonb, ${at}
          from generate_series(1, 3) returning company_id, id
        )
        insert into webhook_deliveries
          (company_id, id, endpoint_id, event_id, status, attempts, next_attempt_at, leased_until, created_at,
           updated_at)
        select company_id, uuidv7(), ${endpointId}::uuid, id, 'pending', 0, ${at}, null, ${at}, ${at} from made`.execute(
        tx,
      );
      await sql`update webhook_deliveries set attempts = 1, leased_until = ${at}
                where id = (select id from webhook_deliveries order by id limit 1)`.execute(tx);
    });
    await migrate(db, { through: '0031_delivery_cursors' });
    // Between 0031 and 0032: a fan-out's first attempt, with no due time, after the tenant's cursor.
    await db.transaction().execute(async (tx) => {
      await sql`select set_config('jornada.sync_floor', 'any', true)`.execute(tx);
      await sql`
        with made as (
          insert into events (company_id, id, type, data, created_at)
          values (${laterId}, uuidv7(), 'employee.created', '{}'::jsonb, ${at}) returning company_id, id
        )
        insert into webhook_deliveries
          (company_id, id, endpoint_id, event_id, status, next_attempt_at, created_at, updated_at)
        select company_id, uuidv7(), ${laterEndpointId}::uuid, id, 'pending', null, ${at}, ${at} from made`.execute(
        tx,
      );
    });
    await migrate(db);

    const claimed = await claimDueDeliveries(db, clock, 100);
    expect(claimed).toHaveLength(4);
    expect(claimed.filter((delivery) => delivery.claim_id === null)).toHaveLength(3);
    expect(claimed.filter((delivery) => delivery.claim_id !== null)).toMatchObject([{ company_id: laterId }]);
    // The one in flight before the upgrade counts its earlier attempt.
    expect(claimed.map((delivery) => delivery.attempts).sort()).toEqual([1, 1, 1, 2]);
    expect(await claimDueDeliveries(db, clock, 100)).toEqual([]);
  } finally {
    await db.destroy();
    await database.drop();
  }
});
