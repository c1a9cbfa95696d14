import { type RawBuilder, sql } from 'kysely';

// How a stored workday's extra minutes are read, in one place for every reader that sums them in SQL (the
// rollups, the work summaries): the engine's rule (time/engine.ts, workday) over the stored columns.

/** A day its stored figures call settled: no incomplete shift and no shift still open (the rollups' rule). */
export const settledOf = (row: RawBuilder<unknown>) =>
  sql<boolean>`(${row}.incomplete_shifts = 0 and ${row}.open_since is null)`;

/** Overtime: minutes beyond the expected ones on a full-time day; a part-timer works none (ET 12.4.c). */
export const overtimeOf = (row: RawBuilder<unknown>) =>
  sql<number>`case when ${row}.part_time then 0 else greatest(0, ${row}.worked_minutes - ${row}.expected_minutes) end`;

/** Complementary minutes (ET 12.5): a part-timer's minutes beyond the day's expected ones. */
export const complementaryOf = (row: RawBuilder<unknown>) =>
  sql<number>`case when ${row}.part_time then greatest(0, ${row}.worked_minutes - ${row}.expected_minutes) else 0 end`;

/** Worked minutes on a holiday of the employee's calendar (a worked holiday, reported apart). */
export const holidayWorkedOf = (row: RawBuilder<unknown>) =>
  sql<number>`case when ${row}.holiday then ${row}.worked_minutes else 0 end`;

/** Overtime paid (ET 35.1), not compensated with rest: what the yearly cap of ET 35.2 counts. */
export const paidOvertimeOf = (row: RawBuilder<unknown>) =>
  sql<number>`case when ${row}.overtime_paid then ${overtimeOf(row)} else 0 end`;

/**
 * Overtime the yearly cap of ET 35.2 counts: paid (overtime compensated with rest is not), and not marked force
 * majeure (ET 35.3).
 */
export const countedOvertimeOf = (row: RawBuilder<unknown>) =>
  sql<number>`case when ${row}.overtime_paid and not ${row}.force_majeure then ${overtimeOf(row)} else 0 end`;

/**
 * What a day adds to the banked balance: worked − expected, less what is paid instead of banked: paid overtime
 * and complementary minutes (ET 12.5.h: paid as ordinary hours). A short day always counts.
 */
export const bankedOf = (row: RawBuilder<unknown>) =>
  sql<number>`(${row}.worked_minutes - ${row}.expected_minutes - ${complementaryOf(row)} - ${paidOvertimeOf(row)})`;
