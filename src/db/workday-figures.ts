import { type RawBuilder, sql } from 'kysely';

// How a stored workday's extra minutes are read, in one place for every reader that sums them in SQL (the
// rollups, the work summaries): the engine's rule (time/engine.ts, workday) over the stored columns.

/** Overtime: minutes beyond the expected ones on a full-time day; a part-timer works none (ET 12.4.c). */
export const overtimeOf = (row: RawBuilder<unknown>) =>
  sql<number>`case when ${row}.part_time then 0 else greatest(0, ${row}.worked_minutes - ${row}.expected_minutes) end`;

/** Complementary minutes (ET 12.5): a part-timer's minutes beyond the day's expected ones. */
export const complementaryOf = (row: RawBuilder<unknown>) =>
  sql<number>`case when ${row}.part_time then greatest(0, ${row}.worked_minutes - ${row}.expected_minutes) else 0 end`;
