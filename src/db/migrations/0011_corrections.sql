-- Corrections of the registry (issue 15, docs/registry.md): a check-in is never edited or deleted; a correction,
-- approved by the company and by the worker, voids check-ins and adds new ones, and each step is a chain entry.
create table check_in_corrections (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  employee_id uuid not null,
  status text not null check (status in ('pending', 'applied', 'rejected')),
  reason text not null check (char_length(reason) between 1 and 500),
  void_ids uuid[] not null,
  add_items jsonb not null,
  requested_by_type text not null check (requested_by_type in ('api_key', 'admin', 'employee', 'system')),
  requested_by_id text not null,
  requested_at timestamptz(3) not null,
  company_approval_by_type text check (company_approval_by_type in ('api_key', 'admin', 'system')),
  company_approval_by_id text,
  company_approval_at timestamptz(3),
  employee_approval_at timestamptz(3),
  rejected_by_type text check (rejected_by_type in ('api_key', 'admin', 'employee', 'system')),
  rejected_by_id text,
  rejected_at timestamptz(3),
  rejection_reason text check (char_length(rejection_reason) between 1 and 500),
  applied_at timestamptz(3),
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (company_id, id),
  foreign key (company_id, employee_id) references employees (company_id, id) on delete cascade,
  check (cardinality(void_ids) + jsonb_array_length(add_items) >= 1),
  check ((company_approval_at is null) = (company_approval_by_id is null)),
  check ((status = 'applied') = (applied_at is not null)),
  check (status <> 'applied' or (company_approval_at is not null and employee_approval_at is not null)),
  check ((status = 'rejected') = (rejected_at is not null))
);
create index check_in_corrections_company_updated on check_in_corrections (company_id, updated_at, id);
create index check_in_corrections_company_employee_updated
  on check_in_corrections (company_id, employee_id, updated_at, id);

-- What a correction asked for never changes; an approval, once given, is never withdrawn; a decided correction
-- stays decided.
create function jornada_corrections_forward_only() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    if current_setting('jornada.purge', true) = 'sandbox' then
      return old;
    end if;
    raise exception 'check_in_corrections are never deleted' using errcode = '42501';
  end if;
  if (new.company_id, new.id, new.employee_id, new.reason, new.void_ids, new.add_items, new.requested_by_type,
      new.requested_by_id, new.requested_at, new.created_at)
     is distinct from
     (old.company_id, old.id, old.employee_id, old.reason, old.void_ids, old.add_items, old.requested_by_type,
      old.requested_by_id, old.requested_at, old.created_at)
     or old.status <> 'pending'
     or (old.company_approval_at is not null and (new.company_approval_at, new.company_approval_by_type,
         new.company_approval_by_id) is distinct from (old.company_approval_at, old.company_approval_by_type,
         old.company_approval_by_id))
     or (old.employee_approval_at is not null and new.employee_approval_at is distinct from old.employee_approval_at)
  then
    raise exception 'a correction only moves forward: its request never changes, a decision is final'
      using errcode = '42501';
  end if;
  return new;
end $$;
create trigger check_in_corrections_forward_only before update or delete on check_in_corrections
  for each row execute function jornada_corrections_forward_only();

-- A check-in added by a correction names it; a voided one names the correction that voided it.
alter table check_ins
  add column correction_id uuid,
  add column voided_by_correction_id uuid,
  add constraint check_ins_voided_by check ((status = 'voided') = (voided_by_correction_id is not null)),
  add constraint check_ins_correction_source check ((source = 'correction') = (correction_id is not null));

-- The duplicate rule holds among active check-ins: a voided one may be added again, corrected.
drop index check_ins_company_employee_timestamp;
create unique index check_ins_company_employee_timestamp_active
  on check_ins (company_id, employee_id, timestamp, type) where status = 'active';
create index check_ins_company_employee_timestamp on check_ins (company_id, employee_id, timestamp, id);

-- A check-in is immutable but for one move: active to voided, naming the correction, with updated_at.
create or replace function jornada_check_ins_immutable() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    if current_setting('jornada.purge', true) = 'sandbox' then
      return old;
    end if;
    raise exception 'check_ins are never deleted' using errcode = '42501';
  end if;
  if (new.company_id, new.id, new.employee_id, new.type, new.timestamp, new.source, new.recorded_at,
      new.recorded_by_type, new.recorded_by_id, new.work_mode, new.late, new.created_at, new.correction_id)
     is distinct from
     (old.company_id, old.id, old.employee_id, old.type, old.timestamp, old.source, old.recorded_at,
      old.recorded_by_type, old.recorded_by_id, old.work_mode, old.late, old.created_at, old.correction_id)
     or old.status = 'voided' then
    raise exception 'a check-in is immutable: only a correction voids it, once' using errcode = '42501';
  end if;
  return new;
end $$;
