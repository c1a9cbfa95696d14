export const SCOPES = [
  'org:empleados:read',
  'org:empleados:write',
  'org:fichajes:read',
  'org:fichajes:write',
  'org:ausencias:read',
  'org:ausencias:write',
  'org:saldos:read',
  'org:informes:read',
  'webhooks:manage',
  'api_keys:manage',
] as const;

export type Scope = (typeof SCOPES)[number];

/** What each scope lets a key do, in a sentence (the dashboard's key form shows it, translated). */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'org:empleados:read': 'Read employees and their contracts.',
  'org:empleados:write': 'Hire, change and terminate employees.',
  'org:fichajes:read': 'Read check-ins, corrections, work summaries and the registry.',
  'org:fichajes:write': 'Record check-ins and propose corrections.',
  'org:ausencias:read': 'Read absences, absence types and holidays.',
  'org:ausencias:write': 'Request, approve, reject and cancel absences.',
  'org:saldos:read': 'Read vacation balances.',
  'org:informes:read': 'Request and download reports.',
  'webhooks:manage': 'Create and manage webhook endpoints and see their deliveries.',
  'api_keys:manage': 'Create and revoke API keys.',
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
