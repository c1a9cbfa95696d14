export const SCOPES = [
  'org:empleados:read',
  'org:empleados:write',
  'org:fichajes:read',
  'org:fichajes:write',
  'org:ausencias:read',
  'org:ausencias:write',
  'org:saldos:read',
  'org:informes:read',
  'org:registro:write',
  'org:nomina:write',
  'org:turnos:read',
  'org:turnos:write',
  'webhooks:manage',
  'api_keys:manage',
] as const;

export type Scope = (typeof SCOPES)[number];

/** What each scope lets a key do, in a sentence (the dashboard's key form shows it, translated). */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'org:empleados:read': 'Read employees, their contract history, work centres and units.',
  'org:empleados:write': 'Hire, change and terminate employees; invite them to the workers’ portal.',
  'org:fichajes:read': 'Read check-ins, corrections, work summaries, closed months and acknowledgements.',
  'org:fichajes:write': 'Record check-ins, propose and decide corrections.',
  'org:ausencias:read': 'Read absences and absence types.',
  'org:ausencias:write': 'Request, approve, reject and cancel absences.',
  'org:saldos:read': 'Read vacation balances.',
  'org:informes:read': 'Request and download reports; read registry access links and their log.',
  'org:registro:write': 'Close months; grant and revoke registry access links.',
  'org:nomina:write':
    'Create, change and delete payroll concept maps (the layouts of the payroll variables report).',
  'org:turnos:read': 'Read shifts, shift templates and rota patterns.',
  'org:turnos:write': 'Plan shifts: create, change, delete and publish them; templates and rota patterns.',
  'webhooks:manage': 'Create and manage webhook endpoints, send test pings, see and retry deliveries.',
  'api_keys:manage': 'List the company’s API keys.',
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
