import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

/**
 * Every index leads with company_id, so each tenant's rows are one contiguous index range and the schema stays
 * ready for company-sharded (Citus-style) distribution. The exceptions serve cross-tenant machinery and are
 * documented in docs/architecture.md; a new index must either lead with company_id or be added there and here.
 */
const CROSS_TENANT_INDEXES: Record<string, string> = {
  instance_settings_pkey: 'instance-wide settings, not tenant data',
  schema_migrations_pkey: 'migration bookkeeping',
  companies_pkey: 'the tenant table itself: its id is the company id',
  companies_sandbox_of_key: 'a company id (the sandbox’s account)',
  api_keys_pkey: 'account table; operator revocation by key id',
  api_keys_secret_hash_key: 'authentication: the lookup that precedes tenancy',
  idempotency_keys_expires_at: 'retention sweep across tenants',
  reports_id: 'the signed download finds its report by id: the signature is the credential, before tenancy',
  reports_due: 'the report generation queue: workers claim due reports of every tenant',
  reports_retention: 'the file retention sweep across tenants',
  report_downloads_url_expires: 'the sweep of used download nonces across tenants',
  company_admins_email_key: 'dashboard login: the email lookup that precedes tenancy',
  dashboard_sessions_token_hash: 'the session cookie: the lookup that precedes tenancy',
  portal_invitations_token_hash: 'the invitation link: the lookup that precedes tenancy',
  portal_accounts_email_key: 'a worker logs in by email alone (the login of each company with that email)',
  portal_sessions_token_hash: 'the portal session cookie: the lookup that precedes tenancy',
  portal_sessions_expires_at: 'the expiry sweep runs across tenants',
  registry_access_grants_token_hash: 'the access link: the lookup that precedes tenancy',
  dashboard_sessions_expires_at: 'the expired-session sweep across tenants',
  events_retention: 'the sweep of old events across tenants',
  queue_turns_pkey: 'the turns of tenants in a shared work queue, by queue name',
  login_failures_subject: 'login throttling: the email or address lookup that precedes tenancy',
  login_failures_failed_at: 'the sweep of expired login failures across tenants',
  access_link_windows_pkey: 'access-link throttling: the address or token lookup that precedes tenancy',
  access_link_windows_start: 'the sweep of ended access-link windows across tenants',
  registry_document_work_due:
    'the sealed-documents queue: the worker role makes the oldest queued documents of every tenant',
  shift_notices_due: 'the shift-notices queue: the worker role e-mails the due notices of every tenant',
  passkeys_credential_id: 'a passkey sign-in: the credential lookup that precedes tenancy',
  passkey_challenges_pkey: 'a sign-in’s WebAuthn challenge has no company yet',
  passkey_challenges_expires_at: 'the sweep of expired WebAuthn challenges across tenants',
  kiosk_devices_id: 'a kiosk’s signed request names its device alone: the lookup that precedes tenancy',
  kiosk_devices_enrollment_code:
    'a tablet enrolls with a one-time code and knows no company yet: the lookup that precedes tenancy',
};

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

it('leads every index with company_id, except the documented cross-tenant ones', async () => {
  const result = await sql<{ name: string; first_column: string }>`
    select i.relname as name, a.attname as first_column
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class t on t.oid = x.indrelid
    join pg_namespace n on n.oid = t.relnamespace
    join pg_attribute a on a.attrelid = t.oid and a.attnum = x.indkey[0]
    where n.nspname = 'public'`.execute(database.db);
  expect(result.rows.length).toBeGreaterThan(5);
  const offenders = result.rows
    .filter((row) => row.first_column !== 'company_id' && !(row.name in CROSS_TENANT_INDEXES))
    .map((row) => `${row.name} (${row.first_column})`);
  expect(offenders).toEqual([]);
});
