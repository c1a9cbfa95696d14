-- Issue 34: records the worker did not make are marked, and the worker decides (docs/registry.md, "Records the
-- worker did not make"). Expand-only: new columns with defaults and a new table; nothing an older node reads or
-- writes changes meaning.

-- What a key is: an integration (the default: it sends records made elsewhere, at any time) or a terminal (a
-- clocking device that records a punch at the moment it is made).
alter table api_keys add column kind text not null default 'integration'
  check (kind in ('integration', 'terminal'));

-- Who recorded a check-in, more precisely: the kind of the key, when a key did; and whether the record is the
-- worker's own (made by the worker, or by a terminal at the moment). Null on rows stored before this migration:
-- the service derives it from who recorded them (docs/registry.md), and their chain entries stay as written.
alter table check_ins add column recorded_by_key_kind text check (recorded_by_key_kind in ('integration', 'terminal'));
alter table check_ins add column worker_confirmed boolean;

-- The worker's answer to a record someone else made for them: accepted, or rejected with a reason (a dispute).
-- Kept on the check-in, so that a sync with updated_since sees it; given once, never changed.
alter table check_ins add column worker_response text check (worker_response in ('accepted', 'rejected'));
alter table check_ins add column worker_response_reason text;
alter table check_ins add column worker_responded_at timestamptz(3);
alter table check_ins add constraint check_ins_worker_response_complete check (
  (worker_response is null and worker_response_reason is null and worker_responded_at is null)
  or (worker_response = 'accepted' and worker_response_reason is null and worker_responded_at is not null)
  or (worker_response = 'rejected' and length(btrim(worker_response_reason)) > 0 and worker_responded_at is not null));

-- A check-in stays immutable but for two transitions: a correction voids it (once), and the worker answers it
-- (once, from no answer).
create or replace function jornada_check_ins_immutable() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    if current_setting('jornada.purge', true) = 'sandbox' then
      return old;
    end if;
    raise exception 'check_ins are never deleted' using errcode = '42501';
  end if;
  if (new.company_id, new.id, new.employee_id, new.type, new.timestamp, new.source, new.recorded_at,
      new.recorded_by_type, new.recorded_by_id, new.work_mode, new.late, new.created_at, new.correction_id,
      new.recorded_by_key_kind, new.worker_confirmed)
     is distinct from
     (old.company_id, old.id, old.employee_id, old.type, old.timestamp, old.source, old.recorded_at,
      old.recorded_by_type, old.recorded_by_id, old.work_mode, old.late, old.created_at, old.correction_id,
      old.recorded_by_key_kind, old.worker_confirmed)
     or old.status = 'voided'
     or (old.worker_response is not null
         and (new.worker_response, new.worker_response_reason, new.worker_responded_at)
             is distinct from (old.worker_response, old.worker_response_reason, old.worker_responded_at)) then
    raise exception 'a check-in is immutable: a correction voids it once, and the worker answers it once'
      using errcode = '42501';
  end if;
  return new;
end $$;

-- The company's registry policy, chosen once: `marked` (records made by others count, marked as such) or
-- `worker_consent` (they count only once the worker accepts them). Never back from worker_consent.
alter table companies add column registry_policy text not null default 'marked'
  check (registry_policy in ('marked', 'worker_consent'));
create function jornada_registry_policy_one_way() returns trigger language plpgsql as $$
begin
  if old.registry_policy = 'worker_consent' and new.registry_policy <> 'worker_consent' then
    raise exception 'the worker_consent registry policy is irreversible' using errcode = '42501';
  end if;
  return new;
end $$;
create trigger companies_registry_policy_one_way before update of registry_policy on companies
  for each row execute function jornada_registry_policy_one_way();

-- A day whose records conflict (the worker's own and someone else's, one of them ignored) or on which the worker
-- disputes a record: flagged until a correction settles it.
alter table workdays add column conflict boolean not null default false;
alter table workday_months add column conflict_days integer not null default 0;
