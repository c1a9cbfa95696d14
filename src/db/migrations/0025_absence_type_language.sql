-- The built-in absence types speak the company's language: a company whose time zone is in Spain (the peninsula
-- and the Balearic Islands, the Canary Islands, Ceuta and Melilla) reads "Vacaciones" and "Baja por enfermedad"
-- in its dashboard, its workers' portal and its registry documents. Only labels still as created are changed; a
-- label the company wrote itself stays. Clients go by `key`, which does not change; `updated_at` moves so an
-- incremental sync sees the new label.
update absence_types t
set label = case t.key when 'vacation' then 'Vacaciones' else 'Baja por enfermedad' end,
    updated_at = now()
from companies c
where c.id = t.company_id
  and c.timezone in ('Europe/Madrid', 'Atlantic/Canary', 'Africa/Ceuta')
  and t.built_in
  and ((t.key = 'vacation' and t.label = 'Vacation') or (t.key = 'sick_leave' and t.label = 'Sick leave'));
