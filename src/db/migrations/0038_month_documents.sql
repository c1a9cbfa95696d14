-- Issue 34: a closed month is sealed with its documents. Closing a month (and each new version a correction
-- makes) stores each worker's month document, PDF and XLSX in each language the product prints, and the
-- company's registry CSV, immutably; downloads of a closed month serve these bytes, never a rebuild. Each file's
-- SHA-256 is a chain entry (the worker's chain, or the company's for the CSV) naming the row.
create table registry_documents (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  -- null: the company's registry CSV of the month
  employee_id uuid,
  month date not null check (extract(day from month) = 1),
  -- the worker's month version (1: as it closed); for the company CSV, its edition (1 at close, +1 a correction)
  version integer not null check (version >= 1),
  format text not null check (format in ('pdf', 'xlsx', 'csv')),
  locale text not null check (locale in ('es', 'en')),
  sha256 bytea not null,
  content bytea not null,
  created_at timestamptz(3) not null,
  primary key (company_id, id)
);
create unique index registry_documents_key on registry_documents
  (company_id, month, coalesce(employee_id, '00000000-0000-0000-0000-000000000000'::uuid), version, format, locale);
create trigger registry_documents_append_only before update or delete on registry_documents
  for each row execute function jornada_registry_append_only();

-- The documents still to make: one row per worker and version (and per company CSV edition), claimed by the
-- worker role with FOR UPDATE SKIP LOCKED, or made at once by whatever needs them first (a download, a
-- correction about to change the month) under the worker's lock.
create table registry_document_work (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  employee_id uuid,
  month date not null,
  version integer not null,
  created_at timestamptz(3) not null,
  primary key (company_id, id)
);
create index registry_document_work_due on registry_document_work (created_at, id);
create index registry_document_work_employee on registry_document_work (company_id, employee_id, month);

-- Months closed before this migration get their documents made now, from the records as they stand (a sealed
-- month's figures cannot have changed but through a version): each worker's current version, and the company's
-- CSV as its first edition.
insert into registry_document_work (id, company_id, employee_id, month, version, created_at)
select gen_random_uuid(), e.company_id, e.employee_id, (e.content::json ->> 'month' || '-01')::date,
       coalesce((select max(v.version) from registry_month_versions v
                 where v.company_id = e.company_id and v.employee_id = e.employee_id
                   and v.month = (e.content::json ->> 'month' || '-01')::date), 1),
       now()
from registry_entries e
where e.kind = 'month_close';
insert into registry_document_work (id, company_id, employee_id, month, version, created_at)
select gen_random_uuid(), m.company_id, null, m.month, 1, now() from registry_months m;
