import { type Insertable, sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { KioskDevicesTable } from '../../db/schema.ts';

const DEVICE_COLUMNS = [
  'kiosk_devices.company_id',
  'kiosk_devices.id',
  'kiosk_devices.name',
  'kiosk_devices.location_id',
  'kiosk_devices.enrollment_expires_at',
  'kiosk_devices.public_key',
  'kiosk_devices.enrolled_at',
  'kiosk_devices.last_seen_at',
  'kiosk_devices.revoked_at',
  'kiosk_devices.created_at',
] as const;

export async function insertDevice(db: Executor, row: Insertable<KioskDevicesTable>): Promise<void> {
  await db.insertInto('kiosk_devices').values(row).execute();
}

/** A company's devices, each with its work centre's name and the company's. */
const devicesWithNames = (db: Executor, companyId: string) =>
  db
    .selectFrom('kiosk_devices')
    .innerJoin('locations', (join) =>
      join
        .onRef('locations.company_id', '=', 'kiosk_devices.company_id')
        .onRef('locations.id', '=', 'kiosk_devices.location_id'),
    )
    .innerJoin('companies', 'companies.id', 'kiosk_devices.company_id')
    .select([
      ...DEVICE_COLUMNS,
      'locations.name as location_name',
      'locations.location_capture',
      'companies.name as company_name',
    ])
    .where('kiosk_devices.company_id', '=', companyId);

/** A company's devices, newest first. */
export async function selectDevices(db: Executor, companyId: string) {
  return await devicesWithNames(db, companyId)
    .orderBy('kiosk_devices.created_at', 'desc')
    .orderBy('kiosk_devices.id', 'desc')
    .execute();
}

export type DeviceRow = Awaited<ReturnType<typeof selectDevices>>[number];

/** One device of a company. */
export async function findDevice(db: Executor, companyId: string, id: string) {
  return await devicesWithNames(db, companyId).where('kiosk_devices.id', '=', id).executeTakeFirst();
}

/** A device by id alone: a signed request names its device before any company is known. */
export async function findDeviceById(db: Executor, id: string) {
  return await db
    .selectFrom('kiosk_devices')
    .select(['company_id', 'id', 'public_key', 'revoked_at', 'location_id', 'enrolled_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Takes a signed request's counter when it is above every counter the device used before (the request was never
 * seen), by the device's id alone, answering the device as it is after the take (its company, centre,
 * key and enrolment), or undefined for a replay, a revoked, unenrolled or unknown device: the check and the take
 * of a signed request in one statement (issue 40: a punch is two signed requests).
 */
export async function takeCounterOfDevice(db: Executor, id: string, counter: bigint, at: Date) {
  return await db
    .updateTable('kiosk_devices')
    .set({ request_counter: counter.toString(), last_seen_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where('public_key', 'is not', null)
    .where('enrolled_at', 'is not', null)
    .where(sql<boolean>`request_counter < ${counter.toString()}::bigint`)
    .returning(['company_id', 'id', 'public_key', 'location_id', 'enrolled_at'])
    .executeTakeFirst();
}

/**
 * Enrolls the device whose pending code has this hash, still valid at `at`: its public key stored, the code
 * gone (single use). Returns the device, or undefined for a code unknown, used or expired.
 */
export async function enrollDevice(db: Executor, codeSha256: Buffer, publicKey: JsonWebKey, at: Date) {
  return await db
    .updateTable('kiosk_devices')
    .set({
      public_key: JSON.stringify(publicKey),
      enrollment_code_sha256: null,
      enrollment_expires_at: null,
      enrolled_at: at,
      last_seen_at: at,
    })
    .where('enrollment_code_sha256', '=', codeSha256)
    .where('enrollment_expires_at', '>', at)
    .where('revoked_at', 'is', null)
    .returning(['company_id', 'id', 'name', 'location_id'])
    .executeTakeFirst();
}

export async function revokeDevice(db: Executor, companyId: string, id: string, at: Date): Promise<boolean> {
  const revoked = await db
    .updateTable('kiosk_devices')
    .set({ revoked_at: at, enrollment_code_sha256: null, enrollment_expires_at: null })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return revoked !== undefined;
}

/** The active employees of a work centre, by name: whom a kiosk there may identify. */
export async function selectLocationWorkers(db: Executor, companyId: string, locationId: string) {
  return await db
    .selectFrom('employees')
    .select(['id', 'first_name', 'last_name'])
    .where('company_id', '=', companyId)
    .where('location_id', '=', locationId)
    .where('status', '=', 'active')
    .orderBy('first_name')
    .orderBy('last_name')
    .orderBy('id')
    .execute();
}

export async function upsertPin(
  db: Executor,
  companyId: string,
  employeeId: string,
  pinHmac: Buffer,
  at: Date,
): Promise<void> {
  await db
    .insertInto('kiosk_pins')
    .values({ company_id: companyId, employee_id: employeeId, pin_hmac: pinHmac, updated_at: at })
    .onConflict((conflict) =>
      conflict
        .columns(['company_id', 'employee_id'])
        .doUpdateSet({ pin_hmac: pinHmac, updated_at: at, failures: 0, failures_since: null }),
    )
    .execute();
}

/**
 * A worker's PIN and failure window; locked for an attempt (`lock`: attempts on one worker take turns across
 * nodes).
 */
export async function findPin(
  db: Executor,
  companyId: string,
  employeeId: string,
  options: { lock?: boolean } = {},
) {
  let query = db
    .selectFrom('kiosk_pins')
    .select(['pin_hmac', 'failures', 'failures_since'])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId);
  if (options.lock) query = query.forUpdate();
  return await query.executeTakeFirst();
}

/** A device's failure window, locked for the attempt. */
export async function lockDeviceFailures(db: Executor, companyId: string, id: string) {
  return await db
    .selectFrom('kiosk_devices')
    .select(['pin_failures', 'pin_failures_since'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function setPinFailures(
  db: Executor,
  companyId: string,
  employeeId: string,
  failures: number,
  since: Date | null,
): Promise<void> {
  await db
    .updateTable('kiosk_pins')
    .set({ failures, failures_since: since })
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .execute();
}

export async function setDeviceFailures(
  db: Executor,
  companyId: string,
  id: string,
  failures: number,
  since: Date | null,
): Promise<void> {
  await db
    .updateTable('kiosk_devices')
    .set({ pin_failures: failures, pin_failures_since: since })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();
}

export async function insertTicket(
  db: Executor,
  row: { company_id: string; id: string; device_id: string; employee_id: string; expires_at: Date },
): Promise<void> {
  await db.insertInto('kiosk_tickets').values(row).execute();
}

/** Uses a ticket: deleted, and returned when it was this device's and still valid. Expired ones go too. */
export async function useTicket(db: Executor, companyId: string, id: string, deviceId: string, at: Date) {
  // One statement: the device's expired tickets go, and this one is spent if it is still valid.
  return await db
    .with('expired', (q) =>
      q
        .deleteFrom('kiosk_tickets')
        .where('company_id', '=', companyId)
        .where('device_id', '=', deviceId)
        .where('expires_at', '<=', at)
        .returning('id'),
    )
    .deleteFrom('kiosk_tickets')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('device_id', '=', deviceId)
    .where('expires_at', '>', at)
    .returning(['employee_id'])
    .executeTakeFirst();
}

/** Spends a worker's QR code of one window: false when it was used already. */
export async function useQrWindow(
  db: Executor,
  companyId: string,
  employeeId: string,
  window: bigint,
  at: Date,
): Promise<boolean> {
  const inserted = await db
    .insertInto('kiosk_qr_uses')
    .values({ company_id: companyId, employee_id: employeeId, time_window: window.toString(), used_at: at })
    .onConflict((conflict) => conflict.doNothing())
    .returning('employee_id')
    .executeTakeFirst();
  return inserted !== undefined;
}
