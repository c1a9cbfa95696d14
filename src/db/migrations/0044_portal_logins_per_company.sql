-- Issue 35: logins are per company. The same email may be a worker's login in two companies (each company's
-- invitation works), and neither company learns of, or blocks, the other's. The email stays the lookup of a login
-- (not unique across the deployment any more); within a company it is one login.
drop index portal_accounts_email_key;
create index portal_accounts_email_key on portal_accounts (email_key);
create unique index portal_accounts_company_email on portal_accounts (company_id, email_key);
