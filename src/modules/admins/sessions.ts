import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { newId } from '../../platform/ids.ts';
import { sha256 } from '../../platform/secrets.ts';
import { type Clock, toDate } from '../../time/clock.ts';

export const SESSION_COOKIE = 'jornada_session';
/** A session lasts 12 hours from login, then the administrator logs in again. */
export const SESSION_SECONDS = 12 * 3600;

export type Session = {
  id: string;
  company_id: string;
  admin_id: string;
  email: string;
  csrf_token: string;
  expires_at: Date;
};

/** A new session: the cookie carries a 256-bit random token, the database only its SHA-256. */
export async function createSession(
  db: Db,
  clock: Clock,
  admin: { id: string; company_id: string; email: string },
): Promise<{ token: string; session: Session }> {
  const token = randomBytes(32).toString('base64url');
  const now = clock.now();
  const session = {
    company_id: admin.company_id,
    id: newId(),
    admin_id: admin.id,
    csrf_token: randomBytes(32).toString('base64url'),
    expires_at: toDate(now.add({ seconds: SESSION_SECONDS })),
  };
  await db
    .insertInto('dashboard_sessions')
    .values({ ...session, token_hash: sha256(token), created_at: toDate(now) })
    .execute();
  return { token, session: { ...session, email: admin.email } };
}

export async function findSession(db: Db, clock: Clock, token: string): Promise<Session | null> {
  const row = await db
    .selectFrom('dashboard_sessions as s')
    .innerJoin('company_admins as a', (join) =>
      join.onRef('a.company_id', '=', 's.company_id').onRef('a.id', '=', 's.admin_id'),
    )
    .select(['s.id', 's.company_id', 's.admin_id', 'a.email', 's.csrf_token', 's.expires_at'])
    .where('s.token_hash', '=', sha256(token))
    .where('s.expires_at', '>', toDate(clock.now()))
    .executeTakeFirst();
  return row ?? null;
}

export async function deleteSession(db: Db, session: Session): Promise<void> {
  await db
    .deleteFrom('dashboard_sessions')
    .where('company_id', '=', session.company_id)
    .where('id', '=', session.id)
    .execute();
}
