import { Type } from 'typebox';

/** A base64url field of a WebAuthn response, bounded. */
const B64 = (max = 16_384) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '^[A-Za-z0-9_-]+={0,2}$' });

const Common = {
  id: B64(1_024),
  rawId: B64(1_024),
  type: Type.Literal('public-key'),
  authenticatorAttachment: Type.Optional(
    Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')]),
  ),
  clientExtensionResults: Type.Object({}, { additionalProperties: true }),
};

/** What the browser's navigator.credentials.create() gave, as SimpleWebAuthn's browser library sends it. */
export const RegistrationResponse = Type.Object(
  {
    ...Common,
    response: Type.Object(
      {
        clientDataJSON: B64(),
        attestationObject: B64(),
        authenticatorData: Type.Optional(B64()),
        transports: Type.Optional(
          Type.Array(
            Type.Union(
              ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'].map((name) =>
                Type.Literal(name),
              ),
            ),
            { maxItems: 10 },
          ),
        ),
        publicKeyAlgorithm: Type.Optional(Type.Integer()),
        publicKey: Type.Optional(B64()),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);

/** What navigator.credentials.get() gave: a WebAuthn assertion. */
export const AuthenticationResponse = Type.Object(
  {
    ...Common,
    response: Type.Object(
      {
        clientDataJSON: B64(),
        authenticatorData: B64(),
        signature: B64(),
        userHandle: Type.Optional(Type.String({ maxLength: 1_024 })),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true, description: 'A WebAuthn assertion (navigator.credentials.get()).' },
);

export const RegisterPasskeyBody = Type.Object(
  {
    response: RegistrationResponse,
    name: Type.Optional(Type.String({ maxLength: 100, description: 'A name to tell the passkey apart.' })),
  },
  { additionalProperties: false },
);

export const PasskeyLoginBody = Type.Object(
  { response: AuthenticationResponse },
  { additionalProperties: false },
);

/** The body of an approval a worker signs: the assertion, required once the worker has a passkey. */
export const SignedApprovalBody = Type.Object(
  { assertion: Type.Optional(AuthenticationResponse) },
  { additionalProperties: false },
);

export const PasskeyView = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

/** WebAuthn options for navigator.credentials (SimpleWebAuthn's JSON form). */
export const WebAuthnOptions = Type.Object({}, { additionalProperties: true });

/** What the worker's device signs for an approval: the approval and the options whose challenge is its hash. */
export const ApprovalToSign = Type.Object({
  approval: Type.Object({}, { additionalProperties: true }),
  challenge: Type.String({ description: 'base64url SHA-256 of the approval’s canonical JSON.' }),
  options: Type.Union([WebAuthnOptions, Type.Null()], {
    description: 'null: the worker has no passkey, and approves without a signature.',
  }),
});
