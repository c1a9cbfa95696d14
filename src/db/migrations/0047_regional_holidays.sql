-- jornada: expand-only
-- Issue 38: holidays by region. A work centre has its autonomous community (ISO 3166-2, ES-xx) and municipality;
-- a company has a default region for its centres without one and its employees without a centre. The national
-- and regional holidays shipped in data/holidays/es.json become rows of `holidays` when a region is set (scope
-- national or regional), so that a closed month keeps the calendar it was closed with whatever later releases
-- ship. A regional row without a work centre is the calendar of the employees without a centre only.
alter table locations add column region text check (region ~ '^ES-[A-Z]{2}$');
alter table locations add column municipality text;
alter table companies add column default_region text check (default_region ~ '^ES-[A-Z]{2}$');
alter table holidays add column scope text not null default 'company'
  check (scope in ('national', 'regional', 'local', 'company'));
alter table holidays add column name_local text;
-- The holidays a work centre's calendar draws from the shipped file, found by centre and scope.
create index holidays_company_scope on holidays (company_id, scope, date) where scope in ('national', 'regional');
