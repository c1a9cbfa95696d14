-- Issue 34: the chains cover what the registry's documents print and what changes a figure about a worker, the
-- company and its work centres (docs/registry.md, "What the chains hold"). Expand-only: entries appended for the
-- current state of every employee, company and work centre; the service appends a new state at every change.

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

do $$
declare
  fact record;
begin
  for fact in select * from employees order by company_id, id loop
    perform pg_temp.jornada_append(fact.company_id, fact.id, 'employee', fact.id, json_build_object(
      'kind', 'employee', 'employee_id', fact.id, 'first_name', fact.first_name, 'last_name', fact.last_name,
      'national_id', fact.national_id, 'social_security_number', fact.social_security_number,
      'location_id', fact.location_id, 'hire_date', fact.hire_date::text,
      'termination_date', fact.termination_date::text, 'timezone', fact.timezone,
      'tracking_start_date', fact.tracking_start_date::text, 'opening_banked_minutes', fact.opening_banked_minutes,
      'contracts', (select coalesce(json_agg(json_build_object(
                      'effective_from', c.effective_from::text, 'work_schedule', to_json(c.work_schedule),
                      'vacation_days_per_year', c.vacation_days_per_year::float8) order by c.effective_from), '[]'::json)
                    from employee_contracts c where c.company_id = fact.company_id and c.employee_id = fact.id)),
      fact.updated_at);
  end loop;
  for fact in select * from companies order by id loop
    perform pg_temp.jornada_append(fact.id, null, 'company', fact.id, json_build_object(
      'kind', 'company', 'company_id', fact.id, 'name', fact.name, 'legal_name', fact.legal_name,
      'tax_id', fact.tax_id, 'timezone', fact.timezone, 'tracking_start_date', fact.tracking_start_date::text,
      'late_record_hours', fact.late_record_hours, 'registry_policy', fact.registry_policy), fact.updated_at);
  end loop;
  for fact in select * from locations order by company_id, id loop
    perform pg_temp.jornada_append(fact.company_id, null, 'location', fact.id, json_build_object(
      'kind', 'location', 'location_id', fact.id, 'name', fact.name, 'address', fact.address, 'ccc', fact.ccc),
      fact.updated_at);
  end loop;
end $$;

drop function pg_temp.jornada_append(uuid, uuid, text, uuid, json, timestamptz);
