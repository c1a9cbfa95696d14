-- Issue 35: a worker's answer to a record someone else made names the credential and session it was made with,
-- like their other approvals; set with the answer, once.
alter table check_ins add column worker_response_credential text;

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
         and (new.worker_response, new.worker_response_reason, new.worker_responded_at,
              new.worker_response_credential)
             is distinct from (old.worker_response, old.worker_response_reason, old.worker_responded_at,
              old.worker_response_credential)) then
    raise exception 'a check-in is immutable: a correction voids it once, and the worker answers it once'
      using errcode = '42501';
  end if;
  return new;
end $$;
