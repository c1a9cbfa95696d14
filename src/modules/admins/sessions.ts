import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { newId } from '../../platform/ids.ts';
import { sha256 } from '../../platform/secrets.ts';
import type { AdminSession } from '../../platform/sessions.ts';
import { type Clock, toDate } from '../../time/clock.ts';
import { deleteSessionRow, findLiveSession, insertSession } from './admins.repo.ts';

export const SESSION_COOKIE = 'jornada_session';
/** A session lasts 12 hours from login, then the administrator logs in again. */
export const SESSION_SECONDS = 12 * 3600;

export type Session = AdminSession;

/** A new session: the cookie carries a 256-bit random token, the database only its SHA-256. */
export async function createSession(
  db: Db,
  clock: Clock,
  admin: Pick<Session, 'email' | 'language' | 'role' | 'unit_ids'> & { id: string; company_id: string },
  passkeyId?: string,
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
  const opened = passkeyId ? { credential_kind: 'passkey' as const, passkey_id: passkeyId } : {};
  await insertSession(db, { ...session, token_hash: sha256(token), created_at: toDate(now), ...opened });
  return {
    token,
    session: {
      ...session,
      email: admin.email,
      language: admin.language,
      role: admin.role,
      unit_ids: admin.unit_ids,
      created_at: toDate(now),
      ...opened,
    },
  };
}

export async function findSession(db: Db, clock: Clock, token: string): Promise<Session | null> {
  return (await findLiveSession(db, sha256(token), toDate(clock.now()))) ?? null;
}

export async function deleteSession(db: Db, session: Session): Promise<void> {
  await deleteSessionRow(db, session.company_id, session.id);
}
