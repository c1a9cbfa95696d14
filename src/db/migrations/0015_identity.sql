-- Legal identity for the registry documents (issue 16, docs/registry.md): the company's legal name and tax id,
-- each work centre's address and contribution account code (CCC), and each worker's national id and social
-- security number (NAF). All optional; validated by the service.
alter table companies add column legal_name text, add column tax_id text;
alter table locations add column address text, add column ccc text;
alter table employees add column national_id text, add column social_security_number text;
