/**
 * What the administrator's role allows (issue 39): the session's `can`, the dashboard operations the server will
 * accept from this administrator. The screens offer only these; the server refuses the rest anyway
 * (src/modules/admins/roles.ts), so this is about not showing a button that can only fail.
 */
let allowed: ReadonlySet<string> = new Set();
let ownerRole = false;

export function setAllowed(names: readonly string[], role: string): void {
  allowed = new Set(names);
  ownerRole = role === 'owner';
}

/** Whether the role allows an operation (its operationId without the data mode: `approveAbsence`). */
export const can = (operation: string): boolean => allowed.has(operation);

/** Whether the administrator is an owner: the API addon and the administrators are theirs. */
export const isOwner = (): boolean => ownerRole;
