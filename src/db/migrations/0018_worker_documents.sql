-- The worker's monthly registry document (issue 16): a new report type, as PDF.
alter table reports drop constraint reports_type_check;
alter table reports add constraint reports_type_check
  check (type in ('time_registry_monthly', 'check_ins_export', 'time_registry_worker_monthly'));
alter table reports drop constraint reports_format_check;
alter table reports add constraint reports_format_check check (format in ('csv', 'xlsx', 'pdf'));
