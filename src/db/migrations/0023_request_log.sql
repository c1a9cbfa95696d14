-- The sandbox's request log (issue 18): the last 100 requests made with a company's test keys, for a developer
-- to see what their integration sent. Live traffic is never logged here.
create table request_log (
  company_id uuid not null references companies (id) on delete cascade,
  id bigint generated always as identity,
  at timestamptz(3) not null,
  api_key_id uuid,
  method text not null,
  path text not null,
  status integer not null,
  duration_ms integer not null,
  request_id text not null,
  primary key (company_id, id)
);
