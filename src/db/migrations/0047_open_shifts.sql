-- jornada: expand-only
-- Issue 38, missed clock-outs: each employee's open shift (the latest stored day with `open_since`) is read by the
-- work summaries, the dashboard's Today view and the portal. A partial index of the few days that have one makes
-- that one probe per employee, whatever the size of the table.
create index workdays_open_shifts on workdays (company_id, employee_id, date) where open_since is not null;
