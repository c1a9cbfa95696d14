import { msg } from '../../shared/i18n.ts';

/**
 * The words for the API's states (key, absence, correction, check-in, report, delivery, endpoint, employee): the
 * API sends codes, a person reads these, translated with `t(statusLabel(...))`.
 */
const STATUS: Record<string, string> = {
  active: msg('active'),
  revoked: msg('revoked'),
  expired: msg('expired'),
  requested: msg('requested'),
  approved: msg('approved'),
  denied: msg('denied'),
  cancelled: msg('cancelled'),
  pending: msg('pending'),
  applied: msg('applied'),
  rejected: msg('rejected'),
  voided: msg('voided'),
  processing: msg('processing'),
  completed: msg('completed'),
  failed: msg('failed'),
  succeeded: msg('succeeded'),
  disabled: msg('disabled'),
  terminated: msg('terminated'),
  // The company's subscription and account.
  trialing: msg('trialing'),
  trial_expired: msg('trial expired'),
  suspended: msg('suspended'),
  archived: msg('archived'),
  canceled: msg('canceled'),
  past_due: msg('past due'),
};

/** The key of a state's word (the code itself for a state this table does not know yet). */
export const statusLabel = (status: string) => STATUS[status] ?? status;

/** The kinds of check-in. */
const CHECK_IN_TYPES: Record<string, string> = {
  in: msg('In'),
  out: msg('Out'),
  break_start: msg('Break start'),
  break_end: msg('Break end'),
};
export const checkInTypeLabel = (type: string) => CHECK_IN_TYPES[type] ?? type;

/** Where the work was done. */
const WORK_MODES: Record<string, string> = { on_site: msg('On site'), remote: msg('Remote') };
export const workModeLabel = (mode: string) => WORK_MODES[mode] ?? mode;

/** Where a check-in came from. */
const SOURCES: Record<string, string> = {
  api: msg('API'),
  dashboard: msg('Dashboard'),
  portal: msg('Portal'),
  correction: msg('Correction'),
  kiosk: msg('Kiosk'),
  import: msg('Import'),
};
export const sourceLabel = (source: string) => SOURCES[source] ?? source;
