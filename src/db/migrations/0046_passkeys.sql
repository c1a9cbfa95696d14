-- Issue 35: passkeys (WebAuthn) for workers in the portal and administrators in the dashboard.
-- A passkey is never deleted: its public key proves, for as long as the registry is kept, the approvals it
-- signed. Removing one stamps removed_at; it stops signing in and signing. owner_type names whose it is.
create table passkeys (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  owner_type text not null check (owner_type in ('employee', 'admin')),
  owner_id uuid not null,
  -- The authenticator's credential id (base64url), unique in the deployment: a sign-in finds its passkey by it.
  credential_id text not null,
  -- The COSE public key.
  public_key bytea not null,
  counter bigint not null default 0,
  transports text[] not null default '{}',
  name text not null,
  created_at timestamptz not null,
  last_used_at timestamptz,
  removed_at timestamptz,
  primary key (company_id, id)
);
create unique index passkeys_credential_id on passkeys (credential_id);
create index passkeys_owner on passkeys (company_id, owner_type, owner_id) where removed_at is null;

create or replace function jornada_passkeys_kept() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    if current_setting('jornada.purge', true) = 'sandbox' then
      return old;
    end if;
    raise exception 'passkeys are never deleted: removing one stamps removed_at' using errcode = '42501';
  end if;
  if (new.company_id, new.id, new.owner_type, new.owner_id, new.credential_id, new.public_key, new.created_at)
     is distinct from
     (old.company_id, old.id, old.owner_type, old.owner_id, old.credential_id, old.public_key, old.created_at)
     or (old.removed_at is not null and new.removed_at is distinct from old.removed_at) then
    raise exception 'a passkey''s key and owner never change, and a removed passkey stays removed'
      using errcode = '42501';
  end if;
  return new;
end $$;
create trigger passkeys_kept before update or delete on passkeys
  for each row execute function jornada_passkeys_kept();

-- A WebAuthn challenge for a registration or a sign-in: random, single use, five minutes. (An approval's challenge
-- is not stored: it is the SHA-256 of the approval itself.) A sign-in's challenge has no company yet.
create table passkey_challenges (
  challenge text primary key,
  purpose text not null check (purpose in ('register', 'login')),
  audience text not null check (audience in ('portal', 'dashboard')),
  company_id uuid,
  owner_id uuid,
  expires_at timestamptz not null
);
create index passkey_challenges_expires_at on passkey_challenges (expires_at);

-- How a session was opened: a password or a passkey (which one), for the credential an approval records.
alter table portal_sessions add column credential_kind text not null default 'password'
  check (credential_kind in ('password', 'passkey'));
alter table portal_sessions add column passkey_id uuid;
alter table dashboard_sessions add column credential_kind text not null default 'password'
  check (credential_kind in ('password', 'passkey'));
alter table dashboard_sessions add column passkey_id uuid;
