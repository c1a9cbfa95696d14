import { sessionClient } from '../api.ts';

/** The portal's JSON API client (/portal/api), and the shapes it answers. */
const client = sessionClient('/portal/api', ['/login', '/invitations/accept', '/passkeys/login']);
export const portalApi = client.request;
export const setPortalCsrf = client.setCsrfToken;
export const whenPortalSessionLost = client.whenSessionLost;

export type CheckInType = 'in' | 'out' | 'break_start' | 'break_end';
export type WorkMode = 'on_site' | 'remote';

export type CheckIn = {
  id: string;
  type: CheckInType;
  timestamp: string;
  source: string;
  work_mode: WorkMode | null;
  status: 'active' | 'voided';
  late: boolean;
  correction_id: string | null;
  voided_by_correction_id: string | null;
  recorded_at: string;
  recorded_by: {
    type: 'api_key' | 'admin' | 'employee' | 'system';
    id: string;
    key_kind?: 'integration' | 'terminal';
  };
  worker_confirmed: boolean;
  worker_response: { status: 'accepted' | 'rejected'; reason: string | null; at: string } | null;
};

export type Me = {
  employee: {
    id: string;
    first_name: string;
    last_name: string;
    email: string;
    status: 'active' | 'terminated';
    termination_date: string | null;
    timezone: string;
    can_clock: boolean;
  };
  company: { name: string };
  last_check_in: CheckIn | null;
  access_resets: Array<{ at: string; by_type: string }>;
  csrf_token: string;
};

export type Day = {
  period_start: string;
  worked_minutes: number;
  break_minutes: number;
  expected_minutes: number;
  overtime_minutes: number;
  balance_minutes: number;
  banked_hours_balance_minutes: number;
  incomplete_days: number;
  conflict_days: number;
};

export type Actor = { type: string; id: string };

export type Correction = {
  id: string;
  status: 'pending' | 'applied' | 'rejected';
  reason: string;
  void: string[];
  add: Array<{ type: CheckInType; timestamp: string; work_mode: WorkMode | null }>;
  requested_by: Actor;
  requested_at: string;
  company_approval: { by: Actor; at: string } | null;
  employee_approval: { by: Actor; at: string } | null;
  rejection: { by: Actor; at: string; reason: string } | null;
  applied_at: string | null;
};

export type Page<T> = { data: T[]; meta: { next_cursor: string | null; has_more: boolean } };
