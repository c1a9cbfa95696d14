-- Disabling a company administrator (issue 17): the row stays, because the registry names administrators by id
-- and a printed document must still show whose approval it was; a disabled administrator cannot log in and
-- their sessions end.
alter table company_admins add column disabled_at timestamptz;
