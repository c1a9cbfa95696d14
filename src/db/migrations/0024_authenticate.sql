-- Issue 19: a request's key lookup and admission in one round trip. Finds the key by the hash of the presented
-- secret with its company's and account's state; when the key is valid and the service open to it, counts the
-- request (jornada_admit_request: the key's minute window, then the tenant's monthly quota, both exact); when the
-- service refuses it, reads the usage without counting. The caller decides the answer from the returned state,
-- as before; only the number of round trips changed.
--
-- The admission's commit is asynchronous (synchronous_commit off for this transaction only): a request does not
-- wait for the WAL flush of its counters. A crash of PostgreSQL itself (not of a Jornada node) can lose the
-- counts of about the last 0.6 s (3 × wal_writer_delay): those requests were served and are not counted in their
-- minute window or the month's quota. Nothing else is written here but last_used_at/last_used_ip.
create function jornada_authenticate(
  p_secret_hash bytea, p_mode text, p_now timestamptz, p_window_start timestamptz, p_month date, p_ip text,
  p_allow_inactive boolean, p_rate_limit_live integer, p_rate_limit_test integer, p_quota_test integer,
  p_quota_live_base integer, p_quota_live_per_employee integer, p_quota_live_max integer,
  out api_key_id uuid, out company_id uuid, out account_id uuid, out mode text, out scopes text[],
  out sandbox boolean, out timezone text, out active_employee_count integer, out company_status text,
  out subscription_status text, out addon_enabled boolean,
  out outcome text, out window_count integer, out quota_count integer
) language plpgsql as $$
declare
  v_expires_at timestamptz;
  v_revoked_at timestamptz;
  v_rate_limit integer;
  v_quota integer;
begin
  select k.id, k.company_id, a.id, k.mode::text, k.scopes, t.sandbox_of is not null, a.timezone,
         t.active_employee_count, a.company_status::text, a.subscription_status::text, a.addon_enabled,
         k.expires_at, k.revoked_at
    into api_key_id, company_id, account_id, mode, scopes, sandbox, timezone, active_employee_count,
         company_status, subscription_status, addon_enabled, v_expires_at, v_revoked_at
    from api_keys k
    join companies t on t.id = k.company_id
    join companies a on a.id = coalesce(t.sandbox_of, t.id)
   where k.secret_hash = p_secret_hash;

  if api_key_id is null or mode <> p_mode or v_revoked_at is not null
     or (v_expires_at is not null and v_expires_at <= p_now) then
    outcome := 'unauthenticated';
    return;
  end if;

  if not addon_enabled or not (p_allow_inactive or (company_status = 'active'
                                                    and subscription_status in ('active', 'trialing'))) then
    outcome := 'refused';
    select coalesce((select w.request_count from rate_limit_windows w
                      where w.company_id = jornada_authenticate.company_id and w.api_key_id = jornada_authenticate.api_key_id
                        and w.window_start = p_window_start), 0),
           coalesce((select q.request_count from quota_usage q
                      where q.company_id = jornada_authenticate.company_id and q.month = p_month), 0)
      into window_count, quota_count;
    return;
  end if;

  v_rate_limit := case when mode = 'test' then p_rate_limit_test else p_rate_limit_live end;
  v_quota := case when mode = 'test' then p_quota_test
                  else least(p_quota_live_max, p_quota_live_base + p_quota_live_per_employee * active_employee_count) end;
  perform set_config('synchronous_commit', 'off', true);
  select r.outcome, r.window_count, r.quota_count into outcome, window_count, quota_count
    from jornada_admit_request(company_id, api_key_id, p_window_start, v_rate_limit, p_month, v_quota, p_now, p_ip) r;
end;
$$;
