import { randomBytes } from 'node:crypto';
import type { Db } from './database.ts';

/**
 * A random secret shared by every node on one database, created on first use. Cursor and download-URL
 * signing keys are derived from it (platform/secrets.ts deriveKey).
 */
export async function ensureInstanceSecret(db: Db): Promise<Buffer> {
  await db
    .insertInto('instance_settings')
    .values({ name: 'instance_secret', value: randomBytes(32).toString('base64') })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('name', '=', 'instance_secret')
    .executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64');
}
