/**
 * The shapes the dashboard API answers, taken from the service's own view types (type-only imports: erased from
 * the bundle), so the app cannot drift from what the server sends.
 */
export type { AbsenceView as Absence } from '../../../src/modules/absences/absences.service.ts';
export type { ApiKeyView as ApiKey } from '../../../src/modules/api-keys/api-keys.service.ts';
export type { CheckInView as CheckIn } from '../../../src/modules/check-ins/check-ins.service.ts';
export type { CompanyView as Company } from '../../../src/modules/companies/companies.service.ts';
export type { CorrectionView as Correction } from '../../../src/modules/corrections/corrections.service.ts';
export type { EmployeeView as Employee } from '../../../src/modules/employees/employees.service.ts';
export type { LocationView as Location } from '../../../src/modules/locations/locations.service.ts';
export type { ConceptMapView as PayrollConceptMap } from '../../../src/modules/payroll/payroll.service.ts';
export type { GrantView as AccessGrant } from '../../../src/modules/registry-access/access.service.ts';
export type { AcknowledgementView as Acknowledgement } from '../../../src/modules/registry-access/acknowledgements.service.ts';
export type { ReportView as Report } from '../../../src/modules/reports/reports.service.ts';
export type { TemplateView as ShiftTemplate } from '../../../src/modules/shifts/rota.service.ts';
export type { ShiftView as Shift } from '../../../src/modules/shifts/shifts.service.ts';
export type { ChartsView as Charts, TodayView as Today } from '../../../src/modules/today/today.service.ts';
export type { VacationBalanceView as VacationBalance } from '../../../src/modules/vacation-balances/vacation-balances.service.ts';
export type { DeliveryView as Delivery } from '../../../src/modules/webhooks/deliveries.service.ts';
export type { EndpointView as Endpoint } from '../../../src/modules/webhooks/endpoints.service.ts';
export type { WorkSummaryView as WorkSummary } from '../../../src/modules/work-summaries/work-summaries.service.ts';

import type { Static } from 'typebox';
import type { ClosedMonth as ClosedMonthSchema } from '../../../src/modules/registry/registry.schemas.ts';
import type { Access } from '../../../src/modules/registry-access/access.schemas.ts';

export type ClosedMonth = Static<typeof ClosedMonthSchema>;
export type AccessLogEntry = Static<typeof Access>;
