import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';

/**
 * Passkeys in the dashboard and the portal (docs/security.md, Passkeys): SimpleWebAuthn's browser library runs
 * navigator.credentials; the service checks every answer. `request` is the surface's API client.
 */
type Request = <T>(method: string, path: string, body?: unknown) => Promise<T>;

export const passkeysSupported = () => browserSupportsWebAuthn();

export type { PasskeyView as Passkey } from '../../src/modules/passkeys/passkeys.service.ts';

import type { PasskeyView as Passkey } from '../../src/modules/passkeys/passkeys.service.ts';

/** Creates a passkey on this device and registers it. */
export async function addPasskey(request: Request, name: string): Promise<Passkey> {
  const options = await request<PublicKeyCredentialCreationOptionsJSON>(
    'POST',
    '/passkeys/registration-options',
    {},
  );
  const response = await startRegistration({ optionsJSON: options });
  return await request<Passkey>('POST', '/passkeys', { response, ...(name ? { name } : {}) });
}

/** Signs in with a passkey of this device; the answer is the surface's session. */
export async function signInWithPasskey<T>(request: Request): Promise<T> {
  const options = await request<PublicKeyCredentialRequestOptionsJSON>('POST', '/passkeys/login-options', {});
  const response = await startAuthentication({ optionsJSON: options });
  return await request<T>('POST', '/passkeys/login', { response });
}

/**
 * The signature an approval needs: asks the service what to sign (the approval, whose SHA-256 is the challenge),
 * and, when the worker has a passkey, has the device sign it. `{}` when the worker has none.
 */
export async function signApproval(
  request: Request,
  path: string,
  body?: unknown,
): Promise<{ assertion?: unknown }> {
  const toSign = await request<{ options: PublicKeyCredentialRequestOptionsJSON | null }>(
    body === undefined ? 'GET' : 'POST',
    path,
    body,
  );
  if (!toSign.options) return {};
  return { assertion: await startAuthentication({ optionsJSON: toSign.options }) };
}
