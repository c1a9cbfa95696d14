import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { type Db, type Executor, violatedConstraint } from '../../db/database.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { sha256 } from '../../platform/secrets.ts';
import type { ActingTenant, Credential } from '../../platform/tenant.ts';
import { toDate } from '../../time/clock.ts';
import { findEmployee } from '../employees/employees.service.ts';
import { appendToChain, canonicalJson } from '../registry/registry.service.ts';
import {
  findPasskeyByCredentialId,
  insertChallenge,
  insertPasskey,
  markPasskeysRemoved,
  type PasskeyOwnerType,
  selectPasskeys,
  takeChallenge,
  touchPasskey,
} from './passkeys.repo.ts';

/**
 * Passkeys (WebAuthn; docs/security.md, Passkeys; decision 0023): workers register them in the portal and
 * administrators in the dashboard, sign in with them (a locked password does not lock a passkey out), list and
 * remove them. A worker who has a passkey signs each approval with it: the assertion's challenge is the SHA-256
 * of the canonical approval, and the assertion enters the worker's chain, where verification checks it against
 * the public key the chain recorded at registration. SimpleWebAuthn does the WebAuthn work.
 */

export type Audience = 'portal' | 'dashboard';
export type PasskeyOwner = {
  companyId: string;
  type: PasskeyOwnerType;
  id: string;
  /** What the authenticator shows: the email. */
  userName: string;
};

/**
 * SimpleWebAuthn, loaded by the first passkey operation rather than when a process starts: it and its ASN.1 and
 * X.509 dependencies add about 200 ms to the import of every process (API nodes, workers, CLI commands, each test
 * file), and most requests never touch a passkey.
 */
let library: Promise<typeof import('@simplewebauthn/server')> | undefined;
const webauthn = () => {
  library ??= import('@simplewebauthn/server');
  return library;
};

/** A WebAuthn response's client data (its type, challenge and origin), as the browser wrote it. */
function clientDataOf(clientDataJSON: string): { type: string; challenge: string; origin: string } {
  return JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
}

/** How long a registration's or a sign-in's challenge works. */
const CHALLENGE_MINUTES = 5;
const TIMEOUT_MS = CHALLENGE_MINUTES * 60_000;
const MAX_PASSKEYS = 10;

const ownerTypeOf = (audience: Audience): PasskeyOwnerType => (audience === 'portal' ? 'employee' : 'admin');

/** The relying party: the service's public URL (its host is the RP ID; Chromium refuses an IP address). */
export function relyingParty(publicUrl: string): { id: string; origin: string; name: string } {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'Jornada' };
}

export type PasskeyView = {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
};

export async function listPasskeys(db: Db, owner: Omit<PasskeyOwner, 'userName'>): Promise<PasskeyView[]> {
  return (await selectPasskeys(db, owner.companyId, owner.type, owner.id)).map((row) => ({
    id: row.id,
    name: row.name,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at ? row.last_used_at.toISOString() : null,
  }));
}

/** Options to create a passkey for the owner; the challenge works once, for five minutes. */
export async function registrationOptions(
  deps: Pick<AppDeps, 'db' | 'clock' | 'publicUrl'>,
  owner: PasskeyOwner,
  audience: Audience,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty(deps.publicUrl);
  const existing = await selectPasskeys(deps.db, owner.companyId, owner.type, owner.id);
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: owner.userName,
    userID: Buffer.from(owner.id.replaceAll('-', ''), 'hex'),
    attestationType: 'none',
    timeout: TIMEOUT_MS,
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: row.transports })),
    // A discoverable credential: the sign-in asks for no email.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await storeChallenge(deps, options.challenge, 'register', audience, owner);
  return options;
}

/** Keeps a registration's or a sign-in's challenge for its five minutes (a sign-in's has no owner yet). */
async function storeChallenge(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  challenge: string,
  purpose: 'register' | 'login',
  audience: Audience,
  owner: { companyId: string; id: string } | null,
): Promise<void> {
  await insertChallenge(deps.db, {
    challenge,
    purpose,
    audience,
    company_id: owner?.companyId ?? null,
    owner_id: owner?.id ?? null,
    expires_at: toDate(deps.clock.now().add({ minutes: CHALLENGE_MINUTES })),
  });
}

const challengeOf = (response: { response: { clientDataJSON: string } }): string => {
  let challenge: unknown;
  try {
    challenge = clientDataOf(response.response.clientDataJSON)?.challenge;
  } catch {
    challenge = undefined;
  }
  if (typeof challenge !== 'string' || challenge.length === 0 || challenge.length > 512) {
    throw invalid({ response: 'is not a WebAuthn response' });
  }
  return challenge;
};

/**
 * Registers the passkey the browser created. A worker who already has a passkey adds another only in a session
 * opened with one (otherwise whoever learned the password, or the company through a reset, could add their own
 * device and sign as the worker). A worker's registration is an entry of their chain with the public key, so the
 * approvals it signs can be checked for as long as the registry is kept.
 */
export async function registerPasskey(
  deps: Pick<AppDeps, 'db' | 'clock' | 'publicUrl'>,
  owner: PasskeyOwner,
  audience: Audience,
  input: { response: RegistrationResponseJSON; name?: string | undefined },
  session: Credential,
): Promise<PasskeyView> {
  const rp = relyingParty(deps.publicUrl);
  const now = deps.clock.now();
  const at = toDate(now);
  const challenge = challengeOf(input.response);
  const taken = await takeChallenge(deps.db, challenge, 'register', audience, at);
  if (!taken || taken.company_id !== owner.companyId || taken.owner_id !== owner.id) {
    throw invalid({ response: 'answers no registration of yours that is still open: start again' });
  }
  let verified: Awaited<ReturnType<Awaited<ReturnType<typeof webauthn>>['verifyRegistrationResponse']>>;
  try {
    verified = await (await webauthn()).verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (error) {
    throw invalid({ response: `could not be verified: ${(error as Error).message}` });
  }
  if (!verified.verified || !verified.registrationInfo) {
    throw invalid({ response: 'could not be verified' });
  }
  const { credential } = verified.registrationInfo;
  const id = newId();
  const name = input.name?.trim() || `Passkey ${at.toISOString().slice(0, 10)}`;
  try {
    await deps.db.transaction().execute(async (tx) => {
      await lockOwner(tx, owner);
      const existing = await selectPasskeys(tx, owner.companyId, owner.type, owner.id);
      if (existing.length >= MAX_PASSKEYS) {
        throw new ApiError('conflict', `You have ${MAX_PASSKEYS} passkeys: remove one first.`);
      }
      if (owner.type === 'employee' && existing.length > 0 && session.kind !== 'passkey') {
        throw new ApiError(
          'conflict',
          'You already have a passkey: sign in with it to add another (a password session cannot add one).',
          { errors: { session: session.kind } },
        );
      }
      await insertPasskey(tx, {
        company_id: owner.companyId,
        id,
        owner_type: owner.type,
        owner_id: owner.id,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey),
        counter: String(credential.counter),
        transports: credential.transports ?? [],
        name,
        created_at: at,
      });
      if (owner.type === 'employee') {
        await appendToChain(tx, owner.companyId, owner.id, {
          kind: 'passkey_registered',
          subjectId: id,
          content: {
            employee_id: owner.id,
            passkey_id: id,
            credential_id: credential.id,
            public_key: Buffer.from(credential.publicKey).toString('base64url'),
            at: at.toISOString(),
            session,
          },
          recordedAt: at,
        });
      }
    });
  } catch (error) {
    if (violatedConstraint(error) === 'passkeys_credential_id') {
      throw new ApiError('conflict', 'This passkey is registered already.');
    }
    throw error;
  }
  return { id, name, created_at: at.toISOString(), last_used_at: null };
}

/** The owner's lock: a worker's row (the order every write of a worker's record takes); none for an admin. */
async function lockOwner(tx: Executor, owner: { companyId: string; type: PasskeyOwnerType; id: string }) {
  if (owner.type !== 'employee') return;
  if (!(await findEmployee(tx, owner.companyId, owner.id, { lock: true }))) throw notFound('Employee');
}

/**
 * Removes one of the owner's passkeys. A worker's removal is a chain entry; a worker who has a passkey removes
 * one only in a session opened with a passkey (a password alone must not undo the device's guarantee).
 */
export async function removePasskey(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  owner: Omit<PasskeyOwner, 'userName'>,
  passkeyId: string,
  session: Credential,
): Promise<void> {
  const at = toDate(deps.clock.now());
  await deps.db.transaction().execute(async (tx) => {
    await lockOwner(tx, owner);
    if (owner.type === 'employee' && session.kind !== 'passkey') {
      throw new ApiError('conflict', 'Sign in with a passkey to remove one (a password session cannot).', {
        errors: { session: session.kind },
      });
    }
    if ((await markPasskeysRemoved(tx, owner, at, passkeyId)).length === 0) throw notFound('Passkey');
    if (owner.type === 'employee') {
      await appendToChain(tx, owner.companyId, owner.id, {
        kind: 'passkey_removed',
        subjectId: passkeyId,
        content: { employee_id: owner.id, passkey_id: passkeyId, by: 'employee', at: at.toISOString() },
        recordedAt: at,
      });
    }
  });
}

/**
 * A reset of a worker's access by the company also revokes the worker's passkeys (a worker who lost their
 * device has no other way back), in the reset's transaction; the ids revoked, which the reset's entry names.
 */
export async function revokeWorkerPasskeys(
  tx: Executor,
  companyId: string,
  employeeId: string,
  at: Date,
): Promise<string[]> {
  return await markPasskeysRemoved(tx, { companyId, type: 'employee', id: employeeId }, at);
}

/** Options for a sign-in with any passkey of the audience (a discoverable credential: no email asked). */
export async function loginOptions(
  deps: Pick<AppDeps, 'db' | 'clock' | 'publicUrl'>,
  audience: Audience,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: relyingParty(deps.publicUrl).id,
    userVerification: 'preferred',
    timeout: TIMEOUT_MS,
  });
  await storeChallenge(deps, options.challenge, 'login', audience, null);
  return options;
}

/** The one answer to a passkey that opens no session here (unknown, removed, another audience, a disabled owner). */
export const passkeyRefused = () =>
  new ApiError('unauthenticated', 'This passkey does not open a session here.');

/**
 * Checks a sign-in assertion: its challenge must be one this service issued for the audience, unused and
 * unexpired, and the passkey one of the audience's owners, not removed. Not throttled like passwords: a passkey
 * cannot be guessed, and a flood of wrong passwords must not lock its owner out (issue 35).
 */
export async function authenticatePasskey(
  deps: Pick<AppDeps, 'db' | 'clock' | 'publicUrl'>,
  audience: Audience,
  response: AuthenticationResponseJSON,
): Promise<{ companyId: string; ownerId: string; passkeyId: string }> {
  const at = toDate(deps.clock.now());
  const challenge = challengeOf(response);
  if (!(await takeChallenge(deps.db, challenge, 'login', audience, at))) throw passkeyRefused();
  const key = await findPasskeyByCredentialId(deps.db, response.id);
  if (!key || key.owner_type !== ownerTypeOf(audience)) throw passkeyRefused();
  const counter = await checkAssertion(deps.publicUrl, key, response, challenge);
  if (counter === null) throw passkeyRefused();
  await touchPasskey(deps.db, key.company_id, key.id, counter, at);
  return { companyId: key.company_id, ownerId: key.owner_id, passkeyId: key.id };
}

/**
 * SimpleWebAuthn's check of an assertion: signed by that public key over this challenge, for that origin and RP
 * ID, with a counter past the one given (0: any). Throws on a malformed response.
 */
async function verifyAssertion(
  response: AuthenticationResponseJSON,
  challenge: string,
  rp: { origin: string; id: string },
  key: { publicKey: Uint8Array<ArrayBuffer>; counter: number },
) {
  return await (await webauthn()).verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: { id: response.id, publicKey: key.publicKey, counter: key.counter },
    requireUserVerification: false,
  });
}

/** The authenticator's new counter when the assertion verifies against the key; null when it does not. */
async function checkAssertion(
  publicUrl: string,
  key: { credential_id: string; public_key: Buffer; counter: string; transports: string[] },
  response: AuthenticationResponseJSON,
  challenge: string,
): Promise<number | null> {
  if (response.id !== key.credential_id) return null;
  try {
    const result = await verifyAssertion(response, challenge, relyingParty(publicUrl), {
      publicKey: new Uint8Array(key.public_key),
      counter: Number(key.counter),
    });
    return result.verified ? result.authenticationInfo.newCounter : null;
  } catch {
    return null;
  }
}

/** The challenge of an approval: the SHA-256 of its canonical JSON, base64url (what the worker's device signs). */
export function approvalChallenge(approval: Record<string, unknown>): string {
  return sha256(canonicalJson(approval)).toString('base64url');
}

/**
 * What the portal asks the worker's device to sign for an approval: the approval itself, its SHA-256 (the
 * challenge) and WebAuthn options with that challenge, limited to the worker's passkeys; options null: the worker
 * has no passkey (a password session approves alone).
 */
export async function approvalToSign(
  deps: Pick<AppDeps, 'db' | 'publicUrl'>,
  tenant: ActingTenant,
  approval: Record<string, unknown>,
): Promise<{
  approval: Record<string, unknown>;
  challenge: string;
  options: PublicKeyCredentialRequestOptionsJSON | null;
}> {
  const challenge = approvalChallenge(approval);
  const keys = await selectPasskeys(deps.db, tenant.companyId, 'employee', tenant.actor.id);
  const options =
    keys.length === 0
      ? null
      : await (await webauthn()).generateAuthenticationOptions({
          rpID: relyingParty(deps.publicUrl).id,
          challenge: Buffer.from(challenge, 'base64url'),
          allowCredentials: keys.map((key) => ({
            id: key.credential_id,
            transports: key.transports as never,
          })),
          userVerification: 'preferred',
          timeout: TIMEOUT_MS,
        });
  return { approval, challenge, options };
}

/** A signed approval as its chain entry keeps it: the approval, the passkey and the assertion as sent. */
export type ApprovalSignature = {
  passkey_id: string;
  approval: Record<string, unknown>;
  assertion: AuthenticationResponseJSON;
};

/**
 * The signature a worker's approval carries, checked in the approval's transaction under the worker's lock:
 * a worker who has a passkey must send an assertion made for exactly this approval (its challenge is the
 * approval's SHA-256) by one of their passkeys (422 otherwise: a changed approval, another device, none). A
 * worker without a passkey, or the company, approves without one (undefined).
 */
export async function approvalSignature(
  tx: Executor,
  deps: Pick<AppDeps, 'clock'> & Partial<Pick<AppDeps, 'publicUrl'>>,
  tenant: ActingTenant,
  approval: Record<string, unknown>,
  assertion: AuthenticationResponseJSON | undefined,
): Promise<ApprovalSignature | undefined> {
  if (tenant.actor.type !== 'employee') return undefined;
  const keys = await selectPasskeys(tx, tenant.companyId, 'employee', tenant.actor.id);
  if (keys.length === 0) {
    if (assertion) throw invalid({ assertion: 'you have no passkey: approve without a signature' });
    return undefined;
  }
  if (!assertion) {
    throw invalid(
      { assertion: 'is required: you have a passkey, so your approvals are signed with it' },
      'Sign this approval with your passkey.',
    );
  }
  // Only a seeding script approves without the service's URL, and its workers have no passkeys.
  if (!deps.publicUrl) throw new Error('A signed approval needs the service’s public URL.');
  const key = keys.find((candidate) => candidate.credential_id === assertion.id);
  const counter = key
    ? await checkAssertion(deps.publicUrl, key, assertion, approvalChallenge(approval))
    : null;
  if (!key || counter === null) {
    throw invalid({
      assertion:
        'is not your passkey’s signature of this approval (it may have changed meanwhile): sign again',
    });
  }
  await touchPasskey(tx, tenant.companyId, key.id, counter, toDate(deps.clock.now()));
  return { passkey_id: key.id, approval, assertion };
}

/**
 * Verification of a stored signature (the registry verify): the assertion must be the signature, by the public
 * key the worker's chain recorded, of the approval's SHA-256. The origin and RP ID are the ones the assertion
 * names (the service's public URL may have moved since); the device's signature covers them. null: it holds;
 * otherwise why not.
 */
export async function checkStoredSignature(
  signature: ApprovalSignature,
  publicKey: string,
): Promise<string | null> {
  try {
    const origin = new URL(clientDataOf(signature.assertion.response.clientDataJSON).origin);
    const result = await verifyAssertion(
      signature.assertion,
      approvalChallenge(signature.approval),
      { origin: origin.origin, id: origin.hostname },
      { publicKey: new Uint8Array(Buffer.from(publicKey, 'base64url')), counter: 0 },
    );
    return result.verified ? null : 'the signature does not verify';
  } catch (error) {
    return (error as Error).message;
  }
}
