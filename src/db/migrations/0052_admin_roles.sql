-- jornada: expand-only
-- Issue 39: administrators have a role. owner: everything; admin: everything but the administrators and the
-- addon; team_lead: the employees of their units (and the units below them) only; payroll: read-only. Every
-- administrator who exists is an owner, as each could do everything until now. unit_ids are the units a team
-- lead leads (empty for the other roles); a unit removed later simply leads nobody.
alter table company_admins add column role text not null default 'owner'
  constraint company_admins_role check (role in ('owner', 'admin', 'team_lead', 'payroll'));
alter table company_admins add column unit_ids uuid[] not null default '{}';
