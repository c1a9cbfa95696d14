/**
 * A report's parameters in the order a reader says them (issue 39: the dashboard read "hasta 30 nov 2026, desde 1
 * nov 2026", the database's order of JSON keys): the month, the range from its start, then the rest as given.
 */
const ORDER = ['month', 'from', 'to', 'employee_id', 'locale'];

export function orderedParams(params: Record<string, unknown>): Array<[string, unknown]> {
  const rank = (key: string) => (ORDER.includes(key) ? ORDER.indexOf(key) : ORDER.length);
  return Object.entries(params).sort(([a], [b]) => rank(a) - rank(b));
}
