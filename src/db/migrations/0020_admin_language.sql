-- The dashboard's language, chosen per company administrator (issue 17). Null: the company's default, which is
-- Spanish for a company whose time zone is in Spain and English otherwise (docs/dashboard.md).
alter table company_admins add column language text check (language in ('es', 'en'));
