-- Issue 35: access links were never throttled (2,000 requests with a revoked token in 1.8 s made 2,000 access-log
-- rows). Each address and each token get a per-minute window (this table precedes tenancy: a token not found
-- names no company), and a run of identical refusals of one grant from one address is one access-log entry with
-- a count of its repeats (the only column of an access that may change, and only upward).
create table access_link_windows (
  subject text not null,
  window_start timestamptz(3) not null,
  request_count integer not null,
  primary key (subject, window_start)
);
create index access_link_windows_start on access_link_windows (window_start);

alter table registry_accesses add column repeats integer not null default 0 check (repeats >= 0);

create or replace function jornada_registry_accesses_append_only() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' and current_setting('jornada.purge', true) = 'sandbox' then
    return old;
  end if;
  if tg_op = 'UPDATE' and new.repeats > old.repeats
     and (new.company_id, new.id, new.grant_id, new.at, new.ip, new.what, new.outcome)
       is not distinct from (old.company_id, old.id, old.grant_id, old.at, old.ip, old.what, old.outcome) then
    return new;
  end if;
  raise exception 'registry_accesses is append-only: % refused', tg_op using errcode = '42501';
end $$;
