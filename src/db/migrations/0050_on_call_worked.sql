-- jornada: expand-only
-- On-call work, reported apart (issue 38): a published `on_call` shift is availability, not planned work; the
-- minutes an employee clocks within it are work (they count in worked_minutes like any other) and a stored day
-- keeps how many of them fell within on-call shifts, so that the work summaries report them as
-- `on_call_worked_minutes`. Consolidation computes it from the check-ins and the published on-call shifts, and
-- verification recomputes it by the same code.
--
-- Days stored before this release hold no such figure. Most of them cannot have any (no check-in, or no
-- published on-call shift within two days): they get 0 here. The others are marked null, "not settled yet", and
-- the worker role's maintenance fills them from the facts (workdays/consolidation.ts, settleOnCallFigures),
-- without changing any other figure of the day, sealed or not: the figure did not exist when the month closed.
alter table workdays add column on_call_minutes integer default 0 check (on_call_minutes >= 0);
alter table workday_months add column on_call_worked_minutes integer not null default 0;
update workdays w set on_call_minutes = null
 where w.check_ins > 0
   and exists (
     select 1 from shifts s
      where s.company_id = w.company_id and s.employee_id = w.employee_id
        and s.kind = 'on_call' and s.status = 'published'
        and s.date between w.date - 2 and w.date + 2);
create index workdays_on_call_unsettled on workdays (company_id, employee_id, date) where on_call_minutes is null;
