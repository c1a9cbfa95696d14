import { v7 } from 'uuid';

/** Public identifiers are UUIDv7: random enough to be unguessable, time-ordered for index locality. */
export function newId(): string {
  return v7();
}
