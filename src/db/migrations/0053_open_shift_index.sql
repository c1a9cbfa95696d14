-- jornada: expand-only
-- Issue 39: the missed clock-out notifications look for open shifts across companies every few minutes. Only the
-- days whose shift waits for its `out` are in this index: a handful of rows, however large workdays grows.
create index workdays_open_shifts on workdays (company_id, date) where open_since is not null;
