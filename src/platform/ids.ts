import { randomInt } from 'node:crypto';
import { v7 } from 'uuid';

/** Public identifiers are UUIDv7: random enough to be unguessable, time-ordered for index locality. */
export function newId(): string {
  return v7();
}

/** A random start for a run of UUIDv7 sequence numbers (31 bits, leaving room to count up). */
export function randomSequence(): number {
  return randomInt(0, 2 ** 31);
}

/**
 * UUIDv7s of one instant with consecutive sequence numbers from `first`, so they sort in the order made: the
 * ids of the events a transaction records, which carry its sync stamp (src/db/sync-stamp.ts), so that their
 * order is the stamps' and the sandbox's event feed can end at the sync horizon.
 */
export function idsAt(at: Date, first: number, count: number): string[] {
  return Array.from({ length: count }, (_, index) => v7({ msecs: at.getTime(), seq: first + index }));
}

/** The smallest UUIDv7 of an instant (epoch milliseconds): every id made at or after it sorts at or after this. */
export function firstIdAt(epochMilliseconds: number): string {
  const hex = Math.max(0, Math.floor(epochMilliseconds)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

/** The smallest UUID: a delivery cursor's start (migration 0031). */
export const NIL_ID = '00000000-0000-0000-0000-000000000000';
