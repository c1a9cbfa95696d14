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

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
