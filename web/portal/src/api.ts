import { sessionClient } from '../../shared/api.ts';

/** The portal's JSON API client (/portal/api), and the shapes it answers. */
const client = sessionClient('/portal/api', ['/login', '/invitations/accept', '/passkeys/login']);
export const portalApi = client.request;
export const setPortalCsrf = client.setCsrfToken;
export const whenPortalSessionLost = client.whenSessionLost;

export type { CheckInType, WorkMode } from '../../../src/db/schema.ts';
export type { AbsenceView as Absence } from '../../../src/modules/absences/absences.service.ts';
/**
 * The shapes the portal API answers, taken from the service's own view types and schemas (type-only imports:
 * erased from the bundle), so the portal cannot drift from what the server sends (issue 36).
 */
export type { CheckInView as CheckIn } from '../../../src/modules/check-ins/check-ins.service.ts';
export type { CorrectionView as Correction } from '../../../src/modules/corrections/corrections.service.ts';
export type { ShiftView as Shift } from '../../../src/modules/shifts/shifts.service.ts';
export type { WorkSummaryView as Day } from '../../../src/modules/work-summaries/work-summaries.service.ts';
export type { Page } from '../../../src/platform/pagination.ts';

import type { Static } from 'typebox';
import type { MeView } from '../../../src/modules/portal/portal.schemas.ts';
import type { TimeOffView } from '../../../src/modules/time-off/time-off.schemas.ts';

export type Me = Static<typeof MeView>;
export type TimeOff = Static<typeof TimeOffView>;
