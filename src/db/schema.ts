/**
 * Kysely table types, mirroring src/db/migrations/*.sql. timestamptz columns read as Date (millisecond
 * precision, matching timestamptz(3)); date columns read as 'YYYY-MM-DD' strings; numeric reads as string.
 */
import type { ColumnType, Generated } from 'kysely';

type Numeric = ColumnType<string, string | number, string | number>;

export type CompanyStatus = 'active' | 'suspended' | 'archived';
export type SubscriptionStatus =
  | 'active'
  | 'trialing'
  | 'trial_expired'
  | 'suspended'
  | 'canceled'
  | 'expired'
  | 'none';
export type KeyMode = 'live' | 'test';

export type InstanceSettingsTable = { name: string; value: string };

export type CompaniesTable = {
  id: string;
  sandbox_of: string | null;
  name: string;
  timezone: string;
  /** marked (the default) or worker_consent, chosen once (migration 0034). */
  registry_policy: Generated<RegistryPolicy>;
  /** How overtime is compensated unless a contract period says otherwise (migration 0049). */
  overtime_compensation: Generated<OvertimeCompensation>;
  seats: number;
  default_expiration_days: number | null;
  max_active_keys: number;
  company_status: CompanyStatus;
  subscription_status: SubscriptionStatus;
  addon_enabled: boolean;
  vacation_carry_over_max_days: Numeric;
  vacation_carry_over_expiry: string;
  active_employee_count: number;
  /** A check-in recorded this many hours after its timestamp is late. */
  late_record_hours: Generated<number>;
  /** When the company started recording in Jornada: before it, no minutes are expected. */
  tracking_start_date: string;
  legal_name: Generated<string | null>;
  tax_id: Generated<string | null>;
  /** The region (ISO 3166-2, ES-MD) of its work centres without their own and its employees without a centre. */
  default_region: Generated<string | null>;
  created_at: Date;
  updated_at: Date;
};

export type ApiKeysTable = {
  id: string;
  company_id: string;
  mode: KeyMode;
  name: string | null;
  scopes: string[];
  secret_hash: Buffer;
  secret_prefix: string;
  /** integration (the default) or terminal (migration 0034). */
  kind: Generated<ApiKeyKind>;
  expires_at: Date | null;
  revoked_at: Date | null;
  revoked_reason: string | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
  created_at: Date;
  updated_at: Date;
};

export type RateLimitWindowsTable = {
  company_id: string;
  api_key_id: string;
  window_start: Date;
  request_count: number;
};

export type QuotaUsageTable = { company_id: string; month: string; request_count: number };

export type IdempotencyKeysTable = {
  company_id: string;
  idempotency_key: string;
  fingerprint: string;
  state: 'in_flight' | 'completed';
  locked_until: Date | null;
  response_status: number | null;
  response_headers: ColumnType<Record<string, string> | null, string | null, string | null>;
  response_body: string | null;
  created_at: Date;
  expires_at: Date;
};

export type LocationsTable = {
  company_id: string;
  id: string;
  name: string;
  timezone: string;
  /** The work centre's postal address. */
  address: Generated<string | null>;
  /** Its Social Security contribution account code (código cuenta de cotización). */
  ccc: Generated<string | null>;
  /** Its autonomous community, ISO 3166-2 (ES-CT): the regional holidays of its calendar (migration 0047). */
  region: Generated<string | null>;
  municipality: Generated<string | null>;
  /** Whether punches of this centre's workers carry a position (migration 0054, issue 40). */
  location_capture: Generated<'off' | 'at_punch'>;
  geofence: ColumnType<Geofence | null, string | null | undefined, string | null>;
  created_at: Date;
  updated_at: Date;
};

/** A work centre's circle: the centre and its radius in metres. */
export type Geofence = { latitude: number; longitude: number; radius_m: number };

/** What a punch keeps of where it was made (migration 0054): a position, or the worker's refusal. */
export type PunchLocation =
  | 'declined'
  | {
      latitude: number;
      longitude: number;
      accuracy_m: number;
      distance_m: number | null;
      outside_geofence: boolean | null;
    };

export type UnitsTable = {
  company_id: string;
  id: string;
  name: string;
  parent_id: string | null;
  location_id: string | null;
  created_at: Date;
  updated_at: Date;
};

export type AbsenceTypesTable = {
  company_id: string;
  id: string;
  key: string;
  label: string;
  built_in: boolean;
  created_at: Date;
  updated_at: Date;
};

/** The last 100 requests of a sandbox's test keys (migration 0023). */
export type RequestLogTable = {
  company_id: string;
  id: Generated<string>;
  at: Date;
  api_key_id: string | null;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  request_id: string;
};

import type { HolidayScope } from '../time/holiday-audience.ts';

export type { HolidayScope };

export type HolidaysTable = {
  company_id: string;
  id: string;
  date: string;
  name: string;
  /** The work centre whose local holiday it is; null: a holiday of the whole company. */
  location_id: string | null;
  /**
   * national or regional: drawn from the shipped calendar (data/holidays/es.json) by region; local: a work
   * centre's own; company: the company's own. A regional row without a centre applies to the employees without
   * one only (migration 0047).
   */
  scope: Generated<HolidayScope>;
  /** Its name in the region's co-official language, when it has one. */
  name_local: Generated<string | null>;
  created_at: Date;
  updated_at: Date;
};

/** Planned shifts (migration 0048, issue 38): local times in the employee's zone of the date. */
export type ShiftsTable = {
  company_id: string;
  id: string;
  employee_id: string;
  date: string;
  /** HH:MM. An end at or before the start is the next day's. */
  start_time: string;
  end_time: string;
  break_minutes: number;
  /** end − start − break, computed when written (0 for on_call). */
  planned_minutes: number;
  location_id: string | null;
  work_mode: WorkMode | null;
  kind: 'work' | 'on_call';
  status: 'draft' | 'published';
  note: string | null;
  template_id: string | null;
  /** Its end as an instant (the employee's zone of its date when written). */
  ends_at: Date;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

export type ShiftTemplatesTable = {
  company_id: string;
  id: string;
  name: string;
  start_time: string;
  end_time: string;
  break_minutes: number;
  kind: 'work' | 'on_call';
  created_at: Date;
  updated_at: Date;
};

export type RotaPatternsTable = {
  company_id: string;
  id: string;
  name: string;
  /** Template ids, or null for a day of rest. */
  cycle: ColumnType<Array<string | null>, string, string>;
  created_at: Date;
  updated_at: Date;
};

/** A worker to e-mail about their changed published shifts (migration 0048). */
export type ShiftNoticesTable = { company_id: string; employee_id: string; due_at: Date };

/** Legal-limit alerts (migration 0048): one per employee, date and rule while the record breaks it. */
export type ComplianceAlertsTable = {
  company_id: string;
  id: string;
  employee_id: string;
  date: string;
  rule: string;
  minutes: number;
  limit_minutes: number;
  law: string;
  status: 'open' | 'acknowledged';
  acknowledged_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

export type EmployeeStatus = 'active' | 'terminated';
export type CheckInType = 'in' | 'out' | 'break_start' | 'break_end';
export type CheckInSource = 'api' | 'dashboard' | 'portal' | 'correction' | 'kiosk' | 'import';
export type ActorType = 'api_key' | 'admin' | 'employee' | 'system';
export type WorkMode = 'on_site' | 'remote';
export type ContractType = 'full_time' | 'part_time';
export type OvertimeCompensation = 'paid' | 'time_off';
export type AbsenceStatus = 'requested' | 'approved' | 'denied' | 'cancelled';

export type EmployeesTable = {
  company_id: string;
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  email_key: ColumnType<string, never, never>;
  external_id: string | null;
  status: EmployeeStatus;
  hire_date: string;
  termination_date: string | null;
  location_id: string | null;
  unit_id: string | null;
  timezone: string | null;
  /** Minutes per ISO weekday, Monday first. */
  work_schedule: number[];
  vacation_days_per_year: Numeric;
  consolidated_through: ColumnType<string | null, string | null | undefined, string | null>;
  /** The employee's own tracking start; null: the later of hire_date and the company's. */
  tracking_start_date: ColumnType<string | null, string | null | undefined, string | null>;
  opening_banked_minutes: Generated<number>;
  national_id: Generated<string | null>;
  social_security_number: Generated<string | null>;
  /** When the worker last looked at their shifts in the portal (migration 0048). */
  shifts_seen_at: Generated<Date | null>;
  /** Part-time terms (migration 0049, ET art. 12): null weekly_minutes is the work_schedule's sum. */
  contract_type: Generated<ContractType>;
  weekly_minutes: Generated<number | null>;
  part_time_percentage: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  complementary_limit_percentage: Generated<number | null>;
  overtime_compensation: Generated<OvertimeCompensation | null>;
  created_at: Date;
  updated_at: Date;
};

export type EmployeeContractsTable = {
  company_id: string;
  employee_id: string;
  effective_from: string;
  work_schedule: number[];
  vacation_days_per_year: Numeric;
  /** Part-time terms (migration 0049, ET art. 12): null weekly_minutes is the work_schedule's sum. */
  contract_type: Generated<ContractType>;
  weekly_minutes: Generated<number | null>;
  part_time_percentage: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  complementary_limit_percentage: Generated<number | null>;
  overtime_compensation: Generated<OvertimeCompensation | null>;
  recorded_at: Date;
  recorded_by_type: ActorType;
  recorded_by_id: string;
};

export type PortalInvitationsTable = {
  company_id: string;
  id: string;
  employee_id: string;
  token_hash: Buffer;
  created_by_type: ActorType;
  created_by_id: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  /** invitation (a worker without a login) or reset (of a worker's login; migration 0041). */
  kind: Generated<'invitation' | 'reset'>;
};

export type PortalAccountsTable = {
  company_id: string;
  employee_id: string;
  email_key: string;
  password_hash: string;
  created_at: Date;
  updated_at: Date;
};

export type PortalSessionsTable = {
  company_id: string;
  id: string;
  employee_id: string;
  token_hash: Buffer;
  csrf_token: string;
  created_at: Date;
  expires_at: Date;
  /** How the session was opened (migration 0046). */
  credential_kind: Generated<'password' | 'passkey'>;
  passkey_id: Generated<string | null>;
};

export type RegistryAccessGrantsTable = {
  company_id: string;
  id: string;
  kind: 'inspection' | 'representatives';
  label: string;
  from_date: string;
  to_date: string;
  employee_ids: string[] | null;
  token_hash: Buffer;
  created_by_type: ActorType;
  created_by_id: string;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  /** Who revoked it (migration 0043; null before, and while it stands). */
  revoked_by_type: Generated<ActorType | null>;
  revoked_by_id: Generated<string | null>;
};

export type RegistryAccessesTable = {
  company_id: string;
  id: string;
  grant_id: string;
  at: Date;
  ip: string;
  what: string;
  outcome: 'ok' | 'revoked' | 'expired';
  /** How many identical refusals followed within a minute, counted here instead of each logged (migration 0042). */
  repeats: Generated<number>;
};

export type AccessLinkWindowsTable = { subject: string; window_start: Date; request_count: number };

export type RegistryAcknowledgementsTable = {
  company_id: string;
  employee_id: string;
  month: string;
  acknowledged_at: Date;
  /** The version of the worker's month acknowledged (migration 0037; 1: as it closed). */
  version: Generated<number>;
};

export type RegistryMonthVersionsTable = {
  company_id: string;
  employee_id: string;
  month: string;
  version: number;
  cause_id: string;
  reason: string;
  created_at: Date;
};

/** A sealed document of a closed month (migration 0038): immutable bytes with their SHA-256. */
export type RegistryDocumentsTable = {
  id: string;
  company_id: string;
  /** null: the company's registry CSV of the month. */
  employee_id: string | null;
  month: string;
  version: number;
  format: 'pdf' | 'xlsx' | 'csv';
  locale: 'es' | 'en';
  sha256: Buffer;
  content: Buffer;
  created_at: Date;
};

/** A sealed document still to make (migration 0038). */
export type RegistryDocumentWorkTable = {
  id: string;
  company_id: string;
  employee_id: string | null;
  month: string;
  version: number;
  created_at: Date;
};

export type OvertimeCompensationPeriodsTable = {
  company_id: string;
  effective_from: string;
  compensation: OvertimeCompensation;
  recorded_at: Date;
};

export type ForceMajeureDaysTable = {
  company_id: string;
  id: string;
  employee_id: string;
  date: string;
  reason: string;
  recorded_by_type: ActorType;
  recorded_by_id: string;
  created_at: Date;
  updated_at: Date;
};

export type WorkdaysTable = {
  company_id: string;
  employee_id: string;
  date: string;
  worked_minutes: number;
  break_minutes: number;
  night_minutes: number;
  expected_minutes: number;
  absences_minutes: number;
  anomalies: number;
  check_ins: number;
  /** On or after the employee's tracking start: the day adds to the banked balance. */
  tracked: Generated<boolean>;
  incomplete_shifts: number;
  open_since: Date | null;
  /** The worker's own record and another's conflict on the day, or the worker disputes one (migration 0034). */
  conflict: Generated<boolean>;
  /** Under a part-time contract period: minutes beyond expected are complementary, not overtime (migration 0049). */
  part_time: Generated<boolean>;
  /** Its overtime is paid, not banked (the compensation in force when settled; migration 0049). */
  overtime_paid: Generated<boolean>;
  /** A holiday of the employee's calendar: its worked minutes are a worked holiday's (migration 0049). */
  holiday: Generated<boolean>;
  /** Its overtime was marked force majeure (ET 35.3): not counted towards the yearly cap (migration 0049). */
  force_majeure: Generated<boolean>;
  /**
   * Worked within published on-call shifts, part of worked_minutes (migration 0050); null: stored before that
   * release and not settled yet (the maintenance fills it).
   */
  on_call_minutes: Generated<number | null>;
  consolidated_at: Date;
};

export type WorkdayMonthsTable = {
  company_id: string;
  employee_id: string;
  month: string;
  worked_minutes: number;
  break_minutes: number;
  night_minutes: number;
  overtime_minutes: number;
  complementary_minutes: Generated<number>;
  overtime_counted_minutes: Generated<number>;
  holiday_worked_minutes: Generated<number>;
  on_call_worked_minutes: Generated<number>;
  expected_minutes: number;
  absences_minutes: number;
  source_days: number;
  incomplete_days: number;
  anomalies: number;
  conflict_days: Generated<number>;
  /** What the month's tracked closed days add to the banked balance (worked − expected). */
  banked_minutes: number;
};

export type CheckInsTable = {
  company_id: string;
  id: string;
  employee_id: string;
  type: CheckInType;
  timestamp: Date;
  source: CheckInSource;
  recorded_at: Date;
  recorded_by_type: ActorType;
  recorded_by_id: string;
  work_mode: WorkMode | null;
  status: Generated<'active' | 'voided'>;
  late: Generated<boolean>;
  /** The correction that added this check-in (source `correction`). */
  correction_id: Generated<string | null>;
  /** The correction that voided it (status `voided`). */
  voided_by_correction_id: Generated<string | null>;
  /** The kind of the key that recorded it, when a key did (migration 0034; null before). */
  recorded_by_key_kind: Generated<ApiKeyKind | null>;
  /** Whether it is the worker's own record (migration 0034; null before: derived from who recorded it). */
  worker_confirmed: Generated<boolean | null>;
  /** The worker's answer to a record someone else made for them, given once (migration 0034). */
  worker_response: Generated<'accepted' | 'rejected' | null>;
  worker_response_reason: Generated<string | null>;
  worker_responded_at: Generated<Date | null>;
  /** The credential and session the answer was made with, canonical JSON (migration 0045). */
  worker_response_credential: Generated<string | null>;
  /** The kiosk device it was punched on (source `kiosk`; migration 0054). */
  device_id: Generated<string | null>;
  /** Where it was punched, where the work centre asks (migration 0054). */
  location: ColumnType<PunchLocation | null, string | null | undefined, string | null>;
  /** Sent from a device's queue after it was made without a connection (migration 0054). */
  recorded_offline: Generated<boolean>;
  /** The device's clock when the queued punch was made (its timestamp, to the second). */
  device_time: Generated<Date | null>;
  /** The device whose key signed the queued punch (a kiosk or a worker's phone), and its sequence there. */
  offline_device_id: Generated<string | null>;
  device_sequence: Generated<string | null>;
  created_at: Date;
  updated_at: Date;
};

export type ApiKeyKind = 'integration' | 'terminal';
export type RegistryPolicy = 'marked' | 'worker_consent';

export type CorrectionStatus = 'pending' | 'applied' | 'rejected';

/** One check-in a correction adds, as stored in add_items. */
export type CorrectionAddition = { type: CheckInType; timestamp: string; work_mode: WorkMode | null };

export type CheckInCorrectionsTable = {
  company_id: string;
  id: string;
  employee_id: string;
  status: CorrectionStatus;
  reason: string;
  void_ids: string[];
  add_items: ColumnType<CorrectionAddition[], string, string>;
  requested_by_type: ActorType;
  requested_by_id: string;
  requested_at: Date;
  company_approval_by_type: ActorType | null;
  company_approval_by_id: string | null;
  company_approval_at: Date | null;
  employee_approval_at: Date | null;
  rejected_by_type: ActorType | null;
  rejected_by_id: string | null;
  rejected_at: Date | null;
  rejection_reason: string | null;
  applied_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

export type RegistryMonthsTable = {
  company_id: string;
  month: string;
  closed_at: Date;
  closed_by_type: ActorType;
  closed_by_id: string;
  /** The month's seal (migration 0035): sha256 over its closing entries (months.service.ts, sealOf). */
  seal: Buffer | null;
};

export type RegistryCompanyEntriesTable = {
  company_id: string;
  seq: number;
  kind: string;
  subject_id: string | null;
  content: string;
  recorded_at: Date;
  previous_hash: Buffer;
  hash: Buffer;
};

export type RegistryEntriesTable = {
  company_id: string;
  employee_id: string;
  seq: number;
  kind: string;
  subject_id: string | null;
  content: string;
  recorded_at: Date;
  previous_hash: Buffer;
  hash: Buffer;
};

export type AbsencesTable = {
  company_id: string;
  id: string;
  employee_id: string;
  absence_type_id: string;
  start_date: string;
  end_date: string;
  half_day: boolean;
  status: AbsenceStatus;
  days_count: Numeric;
  note: string | null;
  denial_reason: string | null;
  decided_at: Date | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

export type EventsTable = {
  company_id: string;
  id: string;
  type: string;
  data: ColumnType<Record<string, unknown>, string, never>;
  created_at: Date;
};

export type WebhookEndpointStatus = 'active' | 'disabled';
export type WebhookDisabledReason = 'consecutive_failures' | 'manual';

export type WebhookEndpointsTable = {
  company_id: string;
  id: string;
  url: string;
  events: string[];
  description: string | null;
  secret: string;
  status: WebhookEndpointStatus;
  disabled_reason: WebhookDisabledReason | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
};

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

export type WebhookDeliveriesTable = {
  company_id: string;
  id: string;
  endpoint_id: string;
  event_id: string;
  status: WebhookDeliveryStatus;
  attempts: ColumnType<number, number | undefined, number>;
  /**
   * When a pending delivery's next attempt is due. Null for a first attempt made by an event's fan-out, which is
   * due at once and claimed through its tenant's cursor (migration 0031); null once finished.
   */
  next_attempt_at: Date | null;
  /** While an attempt is in flight: when its claim's lease ends (migration 0028). */
  leased_until: Generated<Date | null>;
  last_attempt_at: Date | null;
  last_response_status: number | null;
  last_error: string | null;
  /** The headers the last attempt sent (the body is the event's envelope); null until one was sent. */
  last_request_headers: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  /** The first 4 KB of the last answer's body; null when none came. */
  last_response_body: Generated<string | null>;
  automatic_retries: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Date;
  updated_at: Date;
};

export type ReportType =
  | 'time_registry_monthly'
  | 'check_ins_export'
  | 'time_registry_worker_monthly'
  | 'payroll_variables';

/** Who polled a sandbox's event feed last, and when (migration 0056, issue 41). */
export type SandboxListenersTable = { company_id: string; listener: string; last_poll_at: Date };

/** A company's layout of the payroll_variables report (migration 0056, issue 41). */
export type PayrollConceptMapsTable = {
  company_id: string;
  id: string;
  name: string;
  preset: 'generic';
  worker_identifier: 'external_id' | 'national_id' | 'naf';
  codes: ColumnType<Record<string, string>, string, string>;
  absence_codes: ColumnType<Record<string, string>, string, string>;
  columns: ColumnType<string[], string, string>;
  headers: ColumnType<Record<string, string>, string, string>;
  created_at: Date;
  updated_at: Date;
};
export type ReportFormat = 'csv' | 'xlsx' | 'pdf';
export type ReportStatus = 'processing' | 'completed' | 'failed' | 'expired';

export type ReportsTable = {
  company_id: string;
  id: string;
  type: ReportType;
  format: ReportFormat;
  params: ColumnType<Record<string, unknown>, string, never>;
  status: ReportStatus;
  attempts: ColumnType<number, number | undefined, number>;
  run_at: Date | null;
  storage_key: string | null;
  row_count: number | null;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  file_expires_at: Date | null;
};

export type ReportDownloadsTable = {
  company_id: string;
  report_id: string;
  nonce: string;
  used_at: Date;
  url_expires_at: Date;
};

export type CompanyAdminsTable = {
  company_id: string;
  id: string;
  email: string;
  email_key: string;
  password_hash: string;
  created_at: Date;
  updated_at: Date;
  /** Set when a company administrator disables the account: no login, no session (the row stays). */
  disabled_at: Generated<Date | null>;
  /** The dashboard's language this administrator chose; null: the company's default. */
  language: Generated<'es' | 'en' | null>;
  /** What the administrator may do (src/modules/admins/roles.ts); the ones before roles are owners. */
  role: Generated<'owner' | 'admin' | 'team_lead' | 'payroll'>;
  /** The units a team lead leads (with the units below them); empty for the other roles. */
  unit_ids: Generated<string[]>;
};

export type DashboardSessionsTable = {
  company_id: string;
  id: string;
  admin_id: string;
  token_hash: Buffer;
  csrf_token: string;
  created_at: Date;
  expires_at: Date;
  /** How the session was opened (migration 0046). */
  credential_kind: Generated<'password' | 'passkey'>;
  passkey_id: Generated<string | null>;
};

/** Per tenant, the last delivery id a claim took (migration 0031). */
export type WebhookDeliveryCursorsTable = {
  company_id: string;
  after_id: string;
};

/** Per transaction whose fan-out made deliveries, the greatest id it made, until a claim takes them (0032). */
export type WebhookNewDeliveriesTable = {
  company_id: string;
  last_id: string;
};

/** A claim of a range of a tenant's first attempts, and its lease (migration 0031). */
export type WebhookClaimsTable = {
  company_id: string;
  id: string;
  first_id: string;
  last_id: string;
  claimed_at: Date;
  leased_until: Date;
};

export type QueueTurnsTable = {
  queue: string;
  company_id: string;
  last_claimed_at: Date;
};

export type LoginFailuresTable = {
  subject: string;
  failed_at: Date;
  /** The attempt that reserved the row (migration 0040); null for rows from before. */
  attempt_id: Generated<string | null>;
};

/** A worker's or an administrator's passkey (migration 0046): never deleted, its key never changes. */
export type PasskeysTable = {
  company_id: string;
  id: string;
  owner_type: 'employee' | 'admin';
  owner_id: string;
  credential_id: string;
  public_key: Buffer;
  counter: Generated<string>;
  transports: Generated<string[]>;
  name: string;
  created_at: Date;
  last_used_at: Generated<Date | null>;
  removed_at: Generated<Date | null>;
};

/** A shared kiosk enrolled for a work centre (migration 0054, issue 40). */
export type KioskDevicesTable = {
  company_id: string;
  id: string;
  name: string;
  location_id: string;
  /** The pending one-time code's SHA-256; null once enrolled (or expired and replaced). */
  enrollment_code_sha256: Buffer | null;
  enrollment_expires_at: Date | null;
  /** The tablet's ECDSA P-256 public key as a JWK; null until enrolled. */
  public_key: ColumnType<JsonWebKey | null, string | null, string | null>;
  /** The highest counter of a signed request seen (bigint as text). */
  request_counter: ColumnType<string, string | undefined, string>;
  enrolled_at: Date | null;
  last_seen_at: Date | null;
  revoked_at: Date | null;
  pin_failures: Generated<number>;
  pin_failures_since: Date | null;
  created_by: string;
  created_at: Date;
};

/** A worker's kiosk PIN, as an HMAC under the instance's key (migration 0054). */
export type KioskPinsTable = {
  company_id: string;
  employee_id: string;
  pin_hmac: Buffer;
  failures: Generated<number>;
  failures_since: Date | null;
  updated_at: Date;
};

/** The 30-second windows whose QR code a worker already used on a kiosk (migration 0054). */
export type KioskQrUsesTable = {
  company_id: string;
  employee_id: string;
  time_window: string;
  used_at: Date;
};

/** A worker's phone or browser, whose key signs the punches it queues offline (migration 0054). */
export type WorkerDevicesTable = {
  company_id: string;
  id: string;
  employee_id: string;
  public_key: ColumnType<JsonWebKey, string, string>;
  registered_at: Date;
  revoked_at: Generated<Date | null>;
};

/** Every queued punch a device sent, recorded or refused, by its sequence (migration 0054). */
export type OfflinePunchesTable = {
  company_id: string;
  device_id: string;
  /** bigint as text. */
  sequence: string;
  employee_id: string | null;
  device_time: Date | null;
  received_at: Date;
  check_in_id: string | null;
  /** The refusal's code; null when recorded. */
  refusal: string | null;
};

/** A worker identified on a kiosk: one punch, within a minute (migration 0054). */
export type KioskTicketsTable = {
  company_id: string;
  id: string;
  device_id: string;
  employee_id: string;
  expires_at: Date;
};

/** A registration's or a sign-in's WebAuthn challenge: single use, five minutes (migration 0046). */
export type PasskeyChallengesTable = {
  challenge: string;
  purpose: 'register' | 'login';
  audience: 'portal' | 'dashboard';
  company_id: string | null;
  owner_id: string | null;
  expires_at: Date;
};

/** One notification to one recipient (migration 0051): its inbox entry and its e-mail's state. */
export type NotificationsTable = {
  company_id: string;
  id: string;
  recipient_type: 'admin' | 'employee';
  recipient_id: string;
  kind: string;
  data: unknown;
  link: string;
  created_at: Date;
  read_at: Date | null;
  email_state: Generated<'pending' | 'sent' | 'skipped' | 'failed'>;
  email_attempts: Generated<number>;
  email_due_at: Date | null;
  email_sent_at: Date | null;
};

/** A recipient's notification choices (migration 0051). */
export type NotificationPreferencesTable = {
  company_id: string;
  recipient_type: 'admin' | 'employee';
  recipient_id: string;
  language: 'es' | 'en' | null;
  email_off: Generated<string[]>;
  updated_at: Date;
};

export type Database = {
  instance_settings: InstanceSettingsTable;
  companies: CompaniesTable;
  api_keys: ApiKeysTable;
  rate_limit_windows: RateLimitWindowsTable;
  quota_usage: QuotaUsageTable;
  idempotency_keys: IdempotencyKeysTable;
  locations: LocationsTable;
  units: UnitsTable;
  payroll_concept_maps: PayrollConceptMapsTable;
  sandbox_listeners: SandboxListenersTable;
  absence_types: AbsenceTypesTable;
  holidays: HolidaysTable;
  shifts: ShiftsTable;
  shift_templates: ShiftTemplatesTable;
  rota_patterns: RotaPatternsTable;
  compliance_alerts: ComplianceAlertsTable;
  shift_notices: ShiftNoticesTable;
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  employees: EmployeesTable;
  check_ins: CheckInsTable;
  absences: AbsencesTable;
  events: EventsTable;
  workdays: WorkdaysTable;
  workday_months: WorkdayMonthsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_cursors: WebhookDeliveryCursorsTable;
  webhook_claims: WebhookClaimsTable;
  webhook_new_deliveries: WebhookNewDeliveriesTable;
  reports: ReportsTable;
  report_downloads: ReportDownloadsTable;
  company_admins: CompanyAdminsTable;
  request_log: RequestLogTable;
  dashboard_sessions: DashboardSessionsTable;
  queue_turns: QueueTurnsTable;
  registry_entries: RegistryEntriesTable;
  registry_months: RegistryMonthsTable;
  check_in_corrections: CheckInCorrectionsTable;
  employee_contracts: EmployeeContractsTable;
  overtime_compensation_periods: OvertimeCompensationPeriodsTable;
  force_majeure_days: ForceMajeureDaysTable;
  portal_invitations: PortalInvitationsTable;
  portal_accounts: PortalAccountsTable;
  portal_sessions: PortalSessionsTable;
  registry_access_grants: RegistryAccessGrantsTable;
  registry_accesses: RegistryAccessesTable;
  registry_acknowledgements: RegistryAcknowledgementsTable;
  registry_company_entries: RegistryCompanyEntriesTable;
  registry_month_versions: RegistryMonthVersionsTable;
  registry_documents: RegistryDocumentsTable;
  registry_document_work: RegistryDocumentWorkTable;
  login_failures: LoginFailuresTable;
  access_link_windows: AccessLinkWindowsTable;
  passkeys: PasskeysTable;
  kiosk_devices: KioskDevicesTable;
  kiosk_pins: KioskPinsTable;
  kiosk_tickets: KioskTicketsTable;
  kiosk_qr_uses: KioskQrUsesTable;
  worker_devices: WorkerDevicesTable;
  offline_punches: OfflinePunchesTable;
  passkey_challenges: PasskeyChallengesTable;
};
