import { formatMonth, t } from '../../shared/i18n.ts';

/**
 * An access-log entry's `what` as its reader says it (issue 39: the log read "summary", "worker 01a21d4b-…
 * 2026-11", "csv 2026-10"): what was opened, the worker by name, the month by name; anything else as stored.
 */
export function accessWhat(what: string, names: ReadonlyMap<string, string>): string {
  const [kind, first, second] = what.split(' ');
  const month = (value: string | undefined) =>
    value && /^\d{4}-\d\d$/.test(value) ? formatMonth(value) : value;
  const name = (id: string | undefined) => (id ? (names.get(id) ?? t('a worker')) : t('a worker'));
  if (kind === 'summary' && first === undefined) return t('The list of workers');
  if (kind === 'worker') return t('{{name}}’s month, {{month}}', { name: name(first), month: month(second) });
  if (kind === 'pdf')
    return t('{{name}}’s document of {{month}} (PDF)', { name: name(first), month: month(second) });
  if (kind === 'csv') return t('The registry of {{month}} (CSV)', { month: month(first) });
  return what;
}

/** An access's outcome in words. */
export function accessOutcome(outcome: string): string {
  if (outcome === 'ok') return t('opened');
  if (outcome === 'revoked') return t('refused: the link was revoked');
  if (outcome === 'expired') return t('refused: the link had expired');
  return outcome;
}
