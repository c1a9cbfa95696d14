import type { Db } from '../../src/db/database.ts';
import { SyncHorizon } from '../../src/db/sync-stamp.ts';
import {
  checkInsListing,
  type ListCheckInsQuery,
  listCheckIns,
} from '../../src/modules/check-ins/check-ins.service.ts';
import { type CursorCodec, syncListing } from '../../src/platform/pagination.ts';
import { systemClock } from '../../src/time/clock.ts';
import {
  type CapturedQuery,
  explainQuery,
  type PlanSummary,
  planProblems,
  queryRecorder,
} from './explain.ts';

export type Scenario = { name: string; query: ListCheckInsQuery };

/** A check-in at a fraction (0..1) of the way through the given order, read through the index. */
async function rowAt(
  db: Db,
  companyId: string,
  fraction: number,
  column: 'updated_at' | 'timestamp',
  employeeId?: string,
) {
  let bounds = db
    .selectFrom('check_ins')
    .select((eb) => [eb.fn.min(column).as('low'), eb.fn.max(column).as('high')])
    .where('company_id', '=', companyId);
  if (employeeId) bounds = bounds.where('employee_id', '=', employeeId);
  const { low, high } = await bounds.executeTakeFirstOrThrow();
  const at = new Date(
    (low as Date).getTime() + Math.floor(((high as Date).getTime() - (low as Date).getTime()) * fraction),
  );
  let query = db
    .selectFrom('check_ins')
    .select(['id', 'timestamp', 'updated_at'])
    .where('company_id', '=', companyId)
    .where(column, '>=', at)
    .orderBy(column)
    .orderBy('id')
    .limit(1);
  if (employeeId) query = query.where('employee_id', '=', employeeId);
  return await query.executeTakeFirstOrThrow();
}

/**
 * The listings the scale requirement names (no filter, employee_id, updated_since), each at the first page and
 * deep in the set, plus the timeline order of from/to. Deep pages start from a real cursor the service would
 * have issued at that position.
 */
export async function checkInScenarios(db: Db, codec: CursorCodec, companyId: string): Promise<Scenario[]> {
  const employee = await db
    .selectFrom('check_ins')
    .select('employee_id')
    .where('company_id', '=', companyId)
    .orderBy('updated_at', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  const employeeId = employee.employee_id;
  const syncCursor = async (query: ListCheckInsQuery, fraction: number) => {
    const row = await rowAt(db, companyId, fraction, 'updated_at', query.employee_id);
    return codec.encode(syncListing(checkInsListing(query).name, query.updated_since), [
      row.updated_at.getTime(),
      row.id,
    ]);
  };
  const timelineCursor = async (query: ListCheckInsQuery, fraction: number) => {
    const row = await rowAt(db, companyId, fraction, 'timestamp', query.employee_id);
    return codec.encode(checkInsListing(query).name, [row.timestamp.getTime(), row.id]);
  };
  const early = (await rowAt(db, companyId, 0.05, 'updated_at')).updated_at.toISOString();
  const late = (await rowAt(db, companyId, 0.95, 'updated_at')).updated_at.toISOString();
  const from = (await rowAt(db, companyId, 0.5, 'timestamp')).timestamp.toISOString();

  const scenarios: Scenario[] = [
    { name: 'no filter, first page', query: { limit: 100 } },
    { name: 'no filter, page at 50%', query: { limit: 100, cursor: await syncCursor({}, 0.5) } },
    { name: 'no filter, page at 99%', query: { limit: 100, cursor: await syncCursor({}, 0.99) } },
    { name: 'employee_id, first page', query: { limit: 100, employee_id: employeeId } },
    {
      name: 'employee_id, page at 90%',
      query: {
        limit: 100,
        employee_id: employeeId,
        cursor: await syncCursor({ employee_id: employeeId }, 0.9),
      },
    },
    { name: 'updated_since 5%, first page', query: { limit: 100, updated_since: early } },
    {
      name: 'updated_since 5%, page at 60%',
      query: { limit: 100, updated_since: early, cursor: await syncCursor({ updated_since: early }, 0.6) },
    },
    { name: 'updated_since 95%, first page', query: { limit: 100, updated_since: late } },
    {
      name: 'employee_id + updated_since',
      query: { limit: 100, employee_id: employeeId, updated_since: early },
    },
    { name: 'from (timeline), first page', query: { limit: 100, from } },
    {
      name: 'from (timeline), page at 80%',
      query: { limit: 100, from, cursor: await timelineCursor({ from }, 0.8) },
    },
    {
      name: 'employee_id + from (timeline), page at 80%',
      query: {
        limit: 100,
        employee_id: employeeId,
        from: '2000-01-01T00:00:00Z',
        cursor: await timelineCursor({ employee_id: employeeId, from: '2000-01-01T00:00:00Z' }, 0.8),
      },
    },
  ];
  return scenarios;
}

export type ScenarioResult = {
  name: string;
  rows: number;
  plan: PlanSummary;
  problems: string[];
  sql: string;
};

/**
 * Runs each scenario through the service on a recording connection, then EXPLAINs the statement it sent.
 * `connect` opens a Db whose Kysely log goes to the recorder.
 */
export async function explainScenarios(
  connect: (log: ReturnType<typeof queryRecorder>['log']) => Db,
  codec: CursorCodec,
  companyId: string,
  scenarios: Scenario[],
): Promise<ScenarioResult[]> {
  const recorder = queryRecorder();
  const db = connect(recorder.log);
  const syncHorizon = new SyncHorizon(db, systemClock);
  try {
    await syncHorizon.of(companyId).read();
    const results: ScenarioResult[] = [];
    for (const scenario of scenarios) {
      recorder.take();
      const page = await listCheckIns({ db, cursors: codec, syncHorizon }, { companyId }, scenario.query);
      const statement = recorder.take().find((query: CapturedQuery) => query.sql.includes('"check_ins"'));
      if (!statement) throw new Error(`no check-in query recorded for ${scenario.name}`);
      const plan = await explainQuery(db, statement);
      results.push({
        name: scenario.name,
        rows: page.data.length,
        plan,
        problems: planProblems(plan, scenario.query.limit ?? 25),
        sql: statement.sql,
      });
    }
    return results;
  } finally {
    await db.destroy();
  }
}
