-- Issue 19: the requests a node receives while its previous admission is in flight are authenticated and
-- admitted together, in one statement and one transaction (platform/admission.ts). Each request is still counted
-- in the key's minute window and the tenant's monthly quota before it is served, against the same shared rows,
-- so the windows and quotas stay exact across nodes; a batch only saves round trips and commits.
--
-- Lock order. A batch locks many counters in one transaction, so every admission takes them in one global order:
-- the tenant's quota row for the month first, then the windows of that tenant's keys, then the keys' usage
-- (api_keys.last_used_*), tenant after tenant in uuid order. A window row is only ever locked by a transaction
-- that holds its tenant's quota row, so two batches (or a batch and a single request) cannot wait on each other
-- in a cycle. jornada_authenticate (0024) now calls this function with one item, so every node, including one
-- still running the previous release during an upgrade, takes the counters in this order; jornada_admit_request
-- (0001), which took the window first, is dropped.
--
-- Outcomes and counts are those of admitting the batch's requests one after the other: per tenant and month,
-- then per key, then in arrival order. Each is counted as before, with the quota taken first: a request that
-- then finds its key's window full gives its quota unit back in the same transaction. As in 0024 the commit is
-- asynchronous (see there for what a crash of PostgreSQL can lose).
create function jornada_authenticate_many(
  p_secret_hashes bytea[], p_modes text[], p_nows timestamptz[], p_window_starts timestamptz[], p_months date[],
  p_ips text[], p_allow_inactive boolean[],
  p_rate_limit_live integer, p_rate_limit_test integer, p_quota_test integer,
  p_quota_live_base integer, p_quota_live_per_employee integer, p_quota_live_max integer
) returns table (
  item integer, api_key_id uuid, company_id uuid, account_id uuid, mode text, scopes text[],
  sandbox boolean, timezone text, active_employee_count integer, company_status text,
  subscription_status text, addon_enabled boolean,
  outcome text, window_count integer, quota_count integer
) language plpgsql as $$
#variable_conflict use_column
declare
  r record;
  v_rate_limit integer;
  v_quota integer;
  v_window integer;
  v_used integer;
begin
  perform set_config('synchronous_commit', 'off', true);
  for r in
    select h.i::integer as i, k.id as key_id, k.company_id as key_company, a.id as key_account,
           k.mode::text as key_mode, k.scopes as key_scopes, t.sandbox_of is not null as key_sandbox,
           a.timezone as key_timezone, t.active_employee_count as key_employees,
           a.company_status::text as key_company_status, a.subscription_status::text as key_subscription_status,
           a.addon_enabled as key_addon, k.expires_at, k.revoked_at,
           p_modes[h.i] as req_mode, p_nows[h.i] as req_now, p_window_starts[h.i] as req_window,
           p_months[h.i] as req_month, p_ips[h.i] as req_ip, p_allow_inactive[h.i] as req_allow_inactive
      from unnest(p_secret_hashes) with ordinality as h(secret_hash, i)
      left join api_keys k on k.secret_hash = h.secret_hash
      left join companies t on t.id = k.company_id
      left join companies a on a.id = coalesce(t.sandbox_of, t.id)
     order by k.company_id nulls first, p_months[h.i], k.id, h.i
  loop
    item := r.i;
    api_key_id := null; company_id := null; account_id := null; mode := null; scopes := null; sandbox := null;
    timezone := null; active_employee_count := null; company_status := null; subscription_status := null;
    addon_enabled := null; window_count := null; quota_count := null;

    if r.key_id is null or r.key_mode <> r.req_mode or r.revoked_at is not null
       or (r.expires_at is not null and r.expires_at <= r.req_now) then
      outcome := 'unauthenticated';
      return next;
      continue;
    end if;

    api_key_id := r.key_id; company_id := r.key_company; account_id := r.key_account; mode := r.key_mode;
    scopes := r.key_scopes; sandbox := r.key_sandbox; timezone := r.key_timezone;
    active_employee_count := r.key_employees; company_status := r.key_company_status;
    subscription_status := r.key_subscription_status; addon_enabled := r.key_addon;

    if not r.key_addon or not (r.req_allow_inactive or (r.key_company_status = 'active'
                                                        and r.key_subscription_status in ('active', 'trialing'))) then
      -- The service is closed to it: the usage is read, nothing is counted.
      outcome := 'refused';
      window_count := coalesce((select w.request_count from rate_limit_windows w
                                 where w.company_id = r.key_company and w.api_key_id = r.key_id
                                   and w.window_start = r.req_window), 0);
      quota_count := coalesce((select q.request_count from quota_usage q
                                where q.company_id = r.key_company and q.month = r.req_month), 0);
      return next;
      continue;
    end if;

    v_rate_limit := case when r.key_mode = 'test' then p_rate_limit_test else p_rate_limit_live end;
    v_quota := case when r.key_mode = 'test' then p_quota_test
                    else least(p_quota_live_max, p_quota_live_base + p_quota_live_per_employee * r.key_employees) end;

    -- The tenant's quota first (the lock order above). The upsert locks the row also when the quota is spent.
    v_used := null;
    insert into quota_usage as q (company_id, month, request_count)
    values (r.key_company, r.req_month, 1)
    on conflict (company_id, month)
    do update set request_count = q.request_count + 1 where q.request_count < v_quota
    returning q.request_count into v_used;

    if v_used is null then
      -- The quota is spent: the window is read, not counted. A full window still answers first (429 rate_limited).
      v_window := coalesce((select w.request_count from rate_limit_windows w
                             where w.company_id = r.key_company and w.api_key_id = r.key_id
                               and w.window_start = r.req_window), 0);
      if v_window >= v_rate_limit then
        outcome := 'rate_limited';
        window_count := v_rate_limit;
        quota_count := (select q.request_count from quota_usage q
                         where q.company_id = r.key_company and q.month = r.req_month);
      else
        outcome := 'quota_exceeded';
        window_count := v_window;
        quota_count := v_quota;
      end if;
      return next;
      continue;
    end if;

    v_window := null;
    insert into rate_limit_windows as w (company_id, api_key_id, window_start, request_count)
    values (r.key_company, r.key_id, r.req_window, 1)
    on conflict (company_id, api_key_id, window_start)
    do update set request_count = w.request_count + 1 where w.request_count < v_rate_limit
    returning w.request_count into v_window;

    if v_window is null then
      -- The window is full: the request is not counted in the quota either.
      update quota_usage q set request_count = q.request_count - 1
       where q.company_id = r.key_company and q.month = r.req_month
      returning q.request_count into quota_count;
      outcome := 'rate_limited';
      window_count := v_rate_limit;
      return next;
      continue;
    end if;

    -- Usage is recorded at most once a minute per key (or when the address changes) to keep writes cheap.
    update api_keys k set last_used_at = r.req_now, last_used_ip = r.req_ip
     where k.id = r.key_id
       and (k.last_used_at is null or k.last_used_at < r.req_now - interval '1 minute'
            or k.last_used_ip is distinct from r.req_ip);
    outcome := 'admitted';
    window_count := v_window;
    quota_count := v_used;
    return next;
  end loop;
end;
$$;

create or replace function jornada_authenticate(
  p_secret_hash bytea, p_mode text, p_now timestamptz, p_window_start timestamptz, p_month date, p_ip text,
  p_allow_inactive boolean, p_rate_limit_live integer, p_rate_limit_test integer, p_quota_test integer,
  p_quota_live_base integer, p_quota_live_per_employee integer, p_quota_live_max integer,
  out api_key_id uuid, out company_id uuid, out account_id uuid, out mode text, out scopes text[],
  out sandbox boolean, out timezone text, out active_employee_count integer, out company_status text,
  out subscription_status text, out addon_enabled boolean,
  out outcome text, out window_count integer, out quota_count integer
) language sql as $$
  select m.api_key_id, m.company_id, m.account_id, m.mode, m.scopes, m.sandbox, m.timezone,
         m.active_employee_count, m.company_status, m.subscription_status, m.addon_enabled,
         m.outcome, m.window_count, m.quota_count
    from jornada_authenticate_many(array[p_secret_hash], array[p_mode], array[p_now], array[p_window_start],
                                   array[p_month], array[p_ip], array[p_allow_inactive],
                                   p_rate_limit_live, p_rate_limit_test, p_quota_test,
                                   p_quota_live_base, p_quota_live_per_employee, p_quota_live_max) m
$$;

drop function jornada_admit_request(uuid, uuid, timestamptz, integer, date, integer, timestamptz, text);
