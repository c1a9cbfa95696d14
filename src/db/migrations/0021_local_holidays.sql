-- Holidays of one work centre (issue 17): a local holiday (fiesta local) applies to the employees assigned to
-- that centre only; a holiday without a centre applies to everyone. At most one company-wide holiday a date, and
-- at most one per centre a date.
alter table holidays add column location_id uuid;
alter table holidays
  add constraint holidays_location_fk foreign key (company_id, location_id) references locations (company_id, id);
alter table holidays drop constraint holidays_company_id_date_key;
create unique index holidays_company_date on holidays (company_id, date) where location_id is null;
create unique index holidays_location_date on holidays (company_id, location_id, date) where location_id is not null;
