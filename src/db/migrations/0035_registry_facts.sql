-- Issue 34: the chain covers every fact that changes a figure or that an inspector relies on (docs/registry.md,
-- "What the chains hold"), and a closed month has a seal. Expand-only: a new table, a new nullable column, and
-- entries appended to the existing chains for the facts already stored.

-- The company's own chain, for company-wide facts: holidays, access grants and each access to the registry, month
-- seals. The same hashing as an employee's chain (registry_entries); append-only.
create table registry_company_entries (
  company_id uuid not null references companies (id) on delete cascade,
  seq bigint not null,
  kind text not null,
  subject_id uuid,
  content text not null,
  recorded_at timestamptz(3) not null,
  previous_hash bytea not null,
  hash bytea not null,
  primary key (company_id, seq)
);
create index registry_company_entries_subject on registry_company_entries (company_id, kind, subject_id);
create trigger registry_company_entries_append_only before update or delete on registry_company_entries
  for each row execute function jornada_registry_append_only();

-- A closed month's seal: sha256 over the month's closing entries, one line `<employee id>:<entry hash hex>\n` per
-- employee of the month in id order (months.service.ts, sealOf). A worker or an inspector who keeps it can prove
-- a later rewrite of any of those chains.
alter table registry_months add column seal bytea;

-- Appends one fact to an employee's chain (employee not null) or to the company's, as the service does.
create function pg_temp.jornada_append(company uuid, employee uuid, fact_kind text, subject uuid, body json,
                                       at timestamptz) returns void language plpgsql as $$
declare
  previous bytea;
  next_seq bigint;
  text_content text := body::text;
begin
  if employee is null then
    select hash, seq + 1 into previous, next_seq from registry_company_entries
    where company_id = company order by seq desc limit 1;
  else
    select hash, seq + 1 into previous, next_seq from registry_entries
    where company_id = company and employee_id = employee order by seq desc limit 1;
  end if;
  previous := coalesce(previous, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea);
  next_seq := coalesce(next_seq, 1);
  if employee is null then
    insert into registry_company_entries (company_id, seq, kind, subject_id, content, recorded_at, previous_hash, hash)
    values (company, next_seq, fact_kind, subject, text_content, at, previous,
            sha256(previous || convert_to(text_content, 'UTF8')));
  else
    insert into registry_entries (company_id, employee_id, seq, kind, subject_id, content, recorded_at,
                                  previous_hash, hash)
    values (company, employee, next_seq, fact_kind, subject, text_content, at, previous,
            sha256(previous || convert_to(text_content, 'UTF8')));
  end if;
end $$;

create function pg_temp.jornada_instant(value timestamptz) returns text language sql immutable as $$
  select to_char(value at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

do $$
declare
  fact record;
begin
  -- Each absence as it stands now (its later changes are appended as they happen).
  for fact in select * from absences order by company_id, employee_id, created_at, id loop
    perform pg_temp.jornada_append(fact.company_id, fact.employee_id, 'absence', fact.id, json_build_object(
      'kind', 'absence', 'absence_id', fact.id, 'employee_id', fact.employee_id,
      'absence_type_id', fact.absence_type_id, 'start_date', fact.start_date::text,
      'end_date', fact.end_date::text, 'half_day', fact.half_day, 'status', fact.status), fact.updated_at);
  end loop;
  for fact in select * from holidays order by company_id, created_at, id loop
    perform pg_temp.jornada_append(fact.company_id, null, 'holiday', fact.id, json_build_object(
      'kind', 'holiday', 'holiday_id', fact.id, 'date', fact.date::text, 'name', fact.name,
      'location_id', fact.location_id, 'status', 'added'), fact.created_at);
  end loop;
  for fact in select * from registry_access_grants order by company_id, created_at, id loop
    perform pg_temp.jornada_append(fact.company_id, null, 'access_grant', fact.id, json_build_object(
      'kind', 'access_grant', 'grant_id', fact.id, 'grant_kind', fact.kind, 'label', fact.label,
      'from', fact.from_date::text, 'to', fact.to_date::text, 'employee_ids', to_json(fact.employee_ids),
      'expires_at', pg_temp.jornada_instant(fact.expires_at),
      'created_by', json_build_object('type', fact.created_by_type, 'id', fact.created_by_id),
      'revoked_at', pg_temp.jornada_instant(fact.revoked_at)), fact.created_at);
  end loop;
  for fact in select * from registry_accesses order by company_id, at, id loop
    perform pg_temp.jornada_append(fact.company_id, null, 'registry_access', fact.id, json_build_object(
      'kind', 'registry_access', 'access_id', fact.id, 'grant_id', fact.grant_id,
      'at', pg_temp.jornada_instant(fact.at), 'ip', fact.ip, 'what', fact.what, 'outcome', fact.outcome), fact.at);
  end loop;
end $$;

-- The seal of every month already closed, from its closing entries.
alter table registry_months disable trigger registry_months_append_only;
update registry_months m set seal = (
  select sha256(convert_to(coalesce(string_agg(r.employee_id::text || ':' || encode(r.hash, 'hex') || E'\n', ''
                                               order by r.employee_id), ''), 'UTF8'))
  from registry_entries r
  where r.company_id = m.company_id and r.kind = 'month_close'
    and (r.content::jsonb ->> 'month') = to_char(m.month, 'YYYY-MM'));
alter table registry_months enable trigger registry_months_append_only;

do $$
declare
  fact record;
begin
  for fact in select * from registry_months order by company_id, month loop
    perform pg_temp.jornada_append(fact.company_id, null, 'month_sealed', null, json_build_object(
      'kind', 'month_sealed', 'month', to_char(fact.month, 'YYYY-MM'), 'seal', encode(fact.seal, 'hex'),
      'closed_at', pg_temp.jornada_instant(fact.closed_at)), fact.closed_at);
  end loop;
end $$;

-- The rows behind these facts change only through the transitions the service makes: a holiday is added or
-- removed (whole), a grant is revoked once, an access is never changed.
create function jornada_registry_accesses_append_only() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' and current_setting('jornada.purge', true) = 'sandbox' then
    return old;
  end if;
  raise exception 'registry_accesses is append-only: % refused', tg_op using errcode = '42501';
end $$;
create trigger registry_accesses_append_only before update or delete on registry_accesses
  for each row execute function jornada_registry_accesses_append_only();

drop function pg_temp.jornada_append(uuid, uuid, text, uuid, json, timestamptz);
drop function pg_temp.jornada_instant(timestamptz);
