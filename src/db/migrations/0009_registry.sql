-- The registry of record (issue 15, docs/registry.md): who recorded each check-in, when and how, and a
-- per-employee hash chain of every registry fact that the database itself refuses to rewrite.

-- A check-in recorded this many hours after its timestamp is late (and the registry shows it).
alter table companies add column late_record_hours integer not null default 24
  check (late_record_hours between 1 and 8760);

alter table check_ins drop constraint check_ins_source_check;
alter table check_ins add constraint check_ins_source_check
  check (source in ('api', 'dashboard', 'portal', 'correction', 'kiosk', 'import'));
alter table check_ins
  add column recorded_at timestamptz(3),
  add column recorded_by_type text check (recorded_by_type in ('api_key', 'admin', 'employee', 'system')),
  add column recorded_by_id text,
  add column work_mode text check (work_mode in ('on_site', 'remote')),
  add column status text not null default 'active' check (status in ('active', 'voided')),
  add column late boolean not null default false;
-- Check-ins recorded before the registry existed: stored when created, by an unknown caller of the API.
update check_ins set recorded_at = created_at, recorded_by_type = 'system', recorded_by_id = 'before-registry';
alter table check_ins
  alter column recorded_at set not null,
  alter column recorded_by_type set not null,
  alter column recorded_by_id set not null;

-- One chain per employee: entry seq n stores sha256(hash of entry n-1 || content), content being the exact
-- UTF-8 text of the fact's canonical JSON. The first entry's previous hash is 32 zero bytes.
create table registry_entries (
  company_id uuid not null references companies (id) on delete cascade,
  employee_id uuid not null,
  seq bigint not null check (seq >= 1),
  kind text not null,
  subject_id uuid,
  content text not null,
  recorded_at timestamptz(3) not null,
  previous_hash bytea not null,
  hash bytea not null,
  primary key (company_id, employee_id, seq),
  foreign key (company_id, employee_id) references employees (company_id, id) on delete cascade
);

-- Existing check-ins enter their employees' chains in the order they were stored.
do $$
declare
  fact record;
  previous bytea;
  current_employee uuid;
  next_seq bigint;
  text_content text;
begin
  for fact in
    select c.company_id, c.employee_id, c.id, c.type, c.timestamp, c.source, c.recorded_at,
           c.recorded_by_type, c.recorded_by_id, c.work_mode, c.late
    from check_ins c
    order by c.company_id, c.employee_id, c.recorded_at, c.id
  loop
    if current_employee is distinct from fact.employee_id then
      current_employee := fact.employee_id;
      previous := decode(repeat('00', 32), 'hex');
      next_seq := 1;
    end if;
    text_content := json_build_object(
      'kind', 'check_in', 'check_in_id', fact.id, 'employee_id', fact.employee_id, 'type', fact.type,
      'timestamp', to_char(fact.timestamp at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
      'source', fact.source,
      'recorded_at', to_char(fact.recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'recorded_by', json_build_object('type', fact.recorded_by_type, 'id', fact.recorded_by_id),
      'work_mode', fact.work_mode, 'late', fact.late)::text;
    insert into registry_entries (company_id, employee_id, seq, kind, subject_id, content, recorded_at,
                                  previous_hash, hash)
    values (fact.company_id, fact.employee_id, next_seq, 'check_in', fact.id, text_content, fact.recorded_at,
            previous, sha256(previous || convert_to(text_content, 'UTF8')));
    previous := sha256(previous || convert_to(text_content, 'UTF8'));
    next_seq := next_seq + 1;
  end loop;
end $$;

-- The database refuses to rewrite the registry. Deleting is allowed only while the transaction has said it is
-- removing a whole sandbox (the addon switch-off: `set local jornada.purge = 'sandbox'`).
create function jornada_registry_append_only() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' and current_setting('jornada.purge', true) = 'sandbox' then
    return old;
  end if;
  raise exception '% is append-only: % refused', tg_table_name, tg_op using errcode = '42501';
end $$;
create trigger registry_entries_append_only before update or delete on registry_entries
  for each row execute function jornada_registry_append_only();

-- A check-in is immutable but for its status (a correction voids it) and updated_at.
create function jornada_check_ins_immutable() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    if current_setting('jornada.purge', true) = 'sandbox' then
      return old;
    end if;
    raise exception 'check_ins are never deleted' using errcode = '42501';
  end if;
  if (new.company_id, new.id, new.employee_id, new.type, new.timestamp, new.source, new.recorded_at,
      new.recorded_by_type, new.recorded_by_id, new.work_mode, new.late, new.created_at)
     is distinct from
     (old.company_id, old.id, old.employee_id, old.type, old.timestamp, old.source, old.recorded_at,
      old.recorded_by_type, old.recorded_by_id, old.work_mode, old.late, old.created_at) then
    raise exception 'a check-in is immutable: only its status changes, through a correction' using errcode = '42501';
  end if;
  return new;
end $$;
create trigger check_ins_immutable before update or delete on check_ins
  for each row execute function jornada_check_ins_immutable();
