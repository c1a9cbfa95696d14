-- Banked hours start when recording starts (issue 15, docs/registry.md): before an employee's tracking start no
-- minutes are expected, and the banked balance is the opening balance plus the balances from the tracking start.

-- The company's tracking start (the account's governs its sandbox). A new company starts the day it is created;
-- an existing company keeps its whole history: its tracking start is its earliest hire date, so no stored figure
-- changes.
alter table companies add column tracking_start_date date;
update companies c set tracking_start_date = least(
  (c.created_at at time zone c.timezone)::date,
  coalesce((select min(e.hire_date) from employees e where e.company_id = c.id), (c.created_at at time zone c.timezone)::date));
alter table companies alter column tracking_start_date set not null;

-- An employee's own tracking start (null: the later of the hire date and the company's) and opening balance.
alter table employees
  add column tracking_start_date date,
  add column opening_banked_minutes integer not null default 0
    check (opening_banked_minutes between -1000000 and 1000000);

-- A day before the tracking start counts its worked minutes but adds nothing to the banked balance.
alter table workdays add column tracked boolean not null default true;

-- The monthly rollup of what the tracked days add to the banked balance.
alter table workday_months add column banked_minutes integer;
update workday_months set banked_minutes = worked_minutes - expected_minutes;
alter table workday_months alter column banked_minutes set not null;
