-- Issue 35: grants list who created them (stored since 0016) and who revoked them.
alter table registry_access_grants add column revoked_by_type text
  check (revoked_by_type in ('api_key', 'admin', 'employee', 'system'));
alter table registry_access_grants add column revoked_by_id text;
