-- jornada: expand-only
-- Issue 40: shared kiosks. A company enrolls a tablet for a work centre: the dashboard makes a one-time code
-- (stored as its SHA-256, valid minutes), the tablet registers its public key with it (ECDSA P-256, the private
-- key non-extractable in the tablet's browser) and signs every later request, each with a counter higher than the
-- last (request_counter), so that a request seen once is refused again. A revoked device is kept, with its punches.
create table kiosk_devices (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  name text not null,
  location_id uuid not null,
  enrollment_code_sha256 bytea,
  enrollment_expires_at timestamptz(3),
  public_key jsonb,
  request_counter bigint not null default 0,
  enrolled_at timestamptz(3),
  last_seen_at timestamptz(3),
  revoked_at timestamptz(3),
  pin_failures integer not null default 0,
  pin_failures_since timestamptz(3),
  created_by uuid not null,
  created_at timestamptz(3) not null,
  primary key (company_id, id),
  foreign key (company_id, location_id) references locations (company_id, id)
);
-- A signed request names its device alone: the lookup that precedes tenancy.
create unique index kiosk_devices_id on kiosk_devices (id);
-- An enrollment code is looked up by its hash alone (the tablet knows no company yet); unique while pending.
create unique index kiosk_devices_enrollment_code on kiosk_devices (enrollment_code_sha256)
  where enrollment_code_sha256 is not null;

-- A worker's kiosk PIN: an HMAC of the PIN under a key derived from the instance's secret (never in the
-- database), so that neither the company nor a copy of the database can read or test it. Failed attempts are
-- counted per worker here and per device on the device, in windows, across every node.
create table kiosk_pins (
  company_id uuid not null,
  employee_id uuid not null,
  pin_hmac bytea not null,
  failures integer not null default 0,
  failures_since timestamptz(3),
  updated_at timestamptz(3) not null,
  primary key (company_id, employee_id),
  foreign key (company_id, employee_id) references employees (company_id, id) on delete cascade
);

-- A worker identified on a kiosk gets a ticket for one punch, valid a minute, used once (deleted at the punch).
create table kiosk_tickets (
  company_id uuid not null,
  id uuid not null,
  device_id uuid not null,
  employee_id uuid not null,
  expires_at timestamptz(3) not null,
  primary key (company_id, id)
);

-- A worker's rotating QR code (shown in the portal, valid one 30-second window) is used once: the windows used.
-- The code is an HMAC under a key derived from the instance's secret; nothing secret is stored.
create table kiosk_qr_uses (
  company_id uuid not null,
  employee_id uuid not null,
  time_window bigint not null,
  used_at timestamptz(3) not null,
  primary key (company_id, employee_id, time_window)
);

-- Where a punch was made: the kiosk device (source `kiosk`). Null for every record before.
alter table check_ins add column device_id uuid;

-- Location at the punch (LOPDGDD art. 90): off unless the company turns it on for a work centre, with a geofence
-- to compare against. A punch keeps the position rounded to about 100 m, its accuracy, the distance to the centre
-- and whether it was outside; or 'declined' when the worker said no; null when nothing was asked.
alter table locations add column location_capture text not null default 'off'
  constraint locations_location_capture check (location_capture in ('off', 'at_punch'));
alter table locations add column geofence jsonb;
alter table check_ins add column location jsonb;

-- Punches kept on a device while it had no connection, sent later (issue 40). A worker's phone registers a key
-- of its own when the worker logs in to the portal (ECDSA P-256, non-extractable in the browser); a kiosk uses
-- its device key. Each queued punch carries the device's clock, a sequence number the device never reuses and
-- its signature.
create table worker_devices (
  company_id uuid not null,
  id uuid not null,
  employee_id uuid not null,
  public_key jsonb not null,
  registered_at timestamptz(3) not null,
  revoked_at timestamptz(3),
  primary key (company_id, id),
  foreign key (company_id, employee_id) references employees (company_id, id) on delete cascade
);
create index worker_devices_employee on worker_devices (company_id, employee_id, registered_at);
-- Every queued punch a device sent, recorded or refused, by its sequence: a sequence is accepted once (a replay
-- finds it), and the sequences missing below a device's highest are the punches it never sent.
create table offline_punches (
  company_id uuid not null,
  device_id uuid not null,
  sequence bigint not null,
  employee_id uuid,
  device_time timestamptz(3),
  received_at timestamptz(3) not null,
  check_in_id uuid,
  refusal text,
  primary key (company_id, device_id, sequence)
);
-- A check-in sent from a device's queue: the device's clock when it was made (its timestamp), the device whose
-- key signed it and its sequence there. recorded_at is when the service received it.
alter table check_ins add column recorded_offline boolean not null default false;
alter table check_ins add column device_time timestamptz(3);
alter table check_ins add column offline_device_id uuid;
alter table check_ins add column device_sequence bigint;
