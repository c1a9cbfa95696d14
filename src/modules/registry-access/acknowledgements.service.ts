import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Executor } from '../../db/database.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, notFound } from '../../platform/errors.ts';
import { DEFAULT_LIMIT, keysetPage, mapPage, type Page } from '../../platform/pagination.ts';
import type { ActingTenant, CompanyScope } from '../../platform/tenant.ts';
import { monthRange } from '../../time/calendar.ts';
import { toDate } from '../../time/clock.ts';
import { findEmployee } from '../employees/employees.service.ts';
import { sealedDocument } from '../month-documents/month-documents.service.ts';
import { approvalSignature, approvalToSign } from '../passkeys/passkeys.service.ts';
import {
  closingOf,
  currentMonthVersion,
  findAcknowledgement,
  insertAcknowledgement,
  isMonthClosed,
  latestAcknowledgement,
  selectAcknowledgements,
} from '../registry/registry.repo.ts';
import { appendToChain } from '../registry/registry.service.ts';
import { pdfStream } from '../reports/pdf.ts';
import { employeeRegistryMonth } from '../reports/report-rows.ts';
import type { DocumentLocale } from '../reports/worker-documents.ts';
import { workerMonthlyDocuments } from '../reports/worker-documents.ts';

/**
 * The worker's copy of a closed month's registry, and their acknowledgement of it (docs/registry.md): art. 35.5
 * ET gives the worker the summary of their hours with each pay period; the portal hands it over once the month
 * is closed, and the worker's acknowledgement enters their chain.
 */

async function assertWorkerMonth(deps: Pick<AppDeps, 'db'>, tenant: ActingTenant, month: string) {
  const employee = await findEmployee(deps.db, tenant.companyId, tenant.actor.id);
  const { from, to } = monthRange(month);
  const employed =
    employee &&
    employee.hire_date <= to &&
    (employee.termination_date === null || employee.termination_date >= from);
  if (!employed || !(await isMonthClosed(deps.db, tenant.companyId, from))) {
    throw notFound('Closed month');
  }
}

/** A worker's month as the registry closed it: the day rows and totals, and the acknowledgement if given. */
export async function workerRegistryMonth(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>,
  tenant: ActingTenant,
  month: string,
) {
  await assertWorkerMonth(deps, tenant, month);
  const { days, totals } = await employeeRegistryMonth(
    deps.db,
    deps.clock,
    deps.cursors,
    tenant,
    tenant.actor.id,
    month,
  );
  const first = monthRange(month).from;
  const version = await currentMonthVersion(deps.db, tenant.companyId, tenant.actor.id, first);
  const latest = await latestAcknowledgement(deps.db, tenant.companyId, tenant.actor.id, first);
  const closing = await closingOf(deps.db, tenant.companyId, month);
  // acknowledged_at is the current version's: a correction applied since asks the worker to acknowledge again.
  return {
    month,
    days,
    totals,
    version,
    // The month's seal: the worker keeps it to prove a later rewrite (docs/registry.md, Seals).
    seal: closing?.seal ? closing.seal.toString('hex') : null,
    acknowledged_version: latest?.version ?? null,
    acknowledged_at: latest && latest.version === version ? latest.acknowledged_at.toISOString() : null,
  };
}

/** The worker's copy of a closed month as the signed-off PDF document (the report's, for one worker). */
export async function workerRegistryMonthPdf(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>,
  tenant: ActingTenant,
  month: string,
  locale: DocumentLocale,
) {
  await assertWorkerMonth(deps, tenant, month);
  // The document stored when the month closed (or its latest version), never a rebuild.
  const sealed = await sealedDocument(deps, tenant, tenant.actor.id, month, 'pdf', locale);
  if (sealed) return sealed.content;
  return pdfStream(
    workerMonthlyDocuments(deps.db, deps.clock, deps.cursors, tenant, {
      month,
      employee_id: tenant.actor.id,
    }),
    { locale, generatedAt: deps.clock.now(), counter: { rows: 0 } },
  );
}

/**
 * Records the worker's acknowledgement of the current version of a closed month, once per version (a repeat
 * answers the first one), in the chain under the employee's lock.
 */
export async function acknowledgeMonth(
  deps: Pick<AppDeps, 'db' | 'clock' | 'publicUrl'>,
  tenant: ActingTenant,
  month: string,
  assertion?: AuthenticationResponseJSON,
): Promise<{ month: string; acknowledged_at: string; version: number }> {
  await assertWorkerMonth(deps, tenant, month);
  const at = toDate(deps.clock.now());
  return await deps.db.transaction().execute(async (tx) => {
    await findEmployee(tx, tenant.companyId, tenant.actor.id, { lock: true });
    const first = monthRange(month).from;
    // The version the worker acknowledges is the current one, read under the lock a correction takes too.
    const version = await currentMonthVersion(tx, tenant.companyId, tenant.actor.id, first);
    const given = await findAcknowledgement(tx, tenant.companyId, tenant.actor.id, first, version);
    if (given) return { month, acknowledged_at: given.acknowledged_at.toISOString(), version };
    // A worker who has a passkey signs this version of the month and its seal (issue 35).
    const approval = await acknowledgementApproval(tx, tenant, month, version);
    const signature = await approvalSignature(tx, deps, tenant, approval, assertion);
    const row = { company_id: tenant.companyId, employee_id: tenant.actor.id, month: first, version };
    if (!(await insertAcknowledgement(tx, { ...row, acknowledged_at: at }))) {
      throw new ApiError('conflict', 'The month was acknowledged meanwhile.');
    }
    await appendToChain(tx, tenant.companyId, tenant.actor.id, {
      kind: 'month_acknowledged',
      subjectId: null,
      content: {
        month,
        employee_id: tenant.actor.id,
        acknowledged_at: at.toISOString(),
        // Version 1 keeps the text of the entries made before versions existed.
        version: version === 1 ? undefined : version,
        // The credential and session it was made with, and the passkey's signature (issue 35).
        credential: tenant.credential,
        ...(signature ? { signature } : {}),
      },
      recordedAt: at,
    });
    return { month, acknowledged_at: at.toISOString(), version };
  });
}

/** What a worker's acknowledgement signs: the month, its current version, and the seal stored at its close. */
async function acknowledgementApproval(
  db: Executor,
  tenant: ActingTenant,
  month: string,
  version: number,
): Promise<Record<string, unknown>> {
  const closing = await closingOf(db, tenant.companyId, month);
  return {
    action: 'month_acknowledged',
    company_id: tenant.companyId,
    employee_id: tenant.actor.id,
    month,
    version,
    seal: closing?.seal ? closing.seal.toString('hex') : null,
  };
}

/** What the worker's device signs to acknowledge a closed month: the approval, its hash and WebAuthn options. */
export async function acknowledgementToSign(
  deps: Pick<AppDeps, 'db' | 'publicUrl'>,
  tenant: ActingTenant,
  month: string,
) {
  await assertWorkerMonth(deps, tenant, month);
  const version = await currentMonthVersion(
    deps.db,
    tenant.companyId,
    tenant.actor.id,
    monthRange(month).from,
  );
  const approval = await acknowledgementApproval(deps.db, tenant, month, version);
  return await approvalToSign(deps, tenant, approval);
}

export type AcknowledgementView = {
  employee_id: string;
  employee_name: string;
  acknowledged_at: string | null;
  version: number;
  acknowledged_version: number | null;
};

/** Who has and has not acknowledged a closed month: every employee of the month, in id order. */
export async function listAcknowledgements(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  tenant: CompanyScope,
  month: string,
  query: { limit?: number | undefined; cursor?: string | undefined },
): Promise<Page<AcknowledgementView>> {
  const { from, to } = monthRange(month);
  if (!(await isMonthClosed(deps.db, tenant.companyId, from))) throw notFound('Closed month');
  const page = await keysetPage(selectAcknowledgements(deps.db, tenant.companyId, from, to), {
    codec: deps.cursors,
    listing: `registry-acknowledgements|${month}`,
    sort: [{ column: 'id', kind: 'text' }],
    limit: query.limit ?? DEFAULT_LIMIT,
    cursor: query.cursor,
    keyOf: (row) => [row.id],
  });
  return mapPage(page, (row) => {
    const version = row.version ?? 1;
    const last =
      row.acknowledgement === null
        ? null
        : (JSON.parse(row.acknowledgement) as { at: string; version: number });
    return {
      employee_id: row.id,
      employee_name: `${row.first_name} ${row.last_name}`,
      acknowledged_at: last && last.version === version ? new Date(last.at).toISOString() : null,
      version,
      acknowledged_version: last?.version ?? null,
    };
  });
}
