import { Type } from 'typebox';
import { Actor, Instant, Nullable, NullableInstant, named, Uuid } from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';
import { CheckInType, WorkMode } from '../check-ins/check-ins.schemas.ts';
import { AuthenticationResponse } from '../passkeys/passkeys.schemas.ts';

export const CORRECTION_STATUSES = ['pending', 'applied', 'rejected'] as const;

/** The most check-ins one correction may void, and add. */
export const MAX_CORRECTION_ITEMS = 50;

const Reason = (description: string) =>
  Type.String({ minLength: 1, maxLength: 500, description: `${description} 1 to 500 characters.` });

const Addition = Type.Object(
  {
    type: CheckInType,
    timestamp: Instant(
      'ISO 8601 instant with an offset; fractional seconds are truncated. The same rules as a check-in: not in the future, within the employment.',
    ),
    work_mode: Type.Optional(Nullable(WorkMode)),
  },
  { additionalProperties: false },
);

const Approval = (description: string) =>
  Nullable(
    Type.Object({ by: Actor('Who approved.'), at: Instant() }, { additionalProperties: false, description }),
  );

export const Correction = named(
  'CheckInCorrection',
  Type.Object({
    id: Uuid(),
    employee_id: Uuid(),
    status: Type.Enum(CORRECTION_STATUSES, {
      description:
        '`pending` until both the company and the worker approve (then `applied`, in the same transaction) or either rejects (`rejected`).',
    }),
    reason: Type.String({ description: 'Why the record is corrected, as the requester wrote it.' }),
    void: Type.Array(Uuid(), { description: 'The check-ins the correction voids.' }),
    add: Type.Array(Type.Object({ type: CheckInType, timestamp: Instant(), work_mode: Nullable(WorkMode) }), {
      description: 'The check-ins the correction adds (source `correction`).',
    }),
    requested_by: Actor('Who requested it.'),
    requested_at: Instant(),
    company_approval: Approval("The company's approval (an API key or an administrator)."),
    employee_approval: Approval("The worker's approval, given in the portal."),
    rejection: Nullable(
      Type.Object(
        { by: Actor('Who rejected it.'), at: Instant(), reason: Type.String() },
        { description: 'Who ended it as rejected, when and why.' },
      ),
    ),
    applied_at: NullableInstant(),
    created_at: Instant(),
    updated_at: Instant(),
  }),
);

/** What a correction asks for; the company names the employee, a worker in the portal is the employee. */
const correctionRequest = {
  reason: Reason('Why the record must change; it enters the registry.'),
  void: Type.Optional(
    Type.Array(Uuid(), {
      maxItems: MAX_CORRECTION_ITEMS,
      uniqueItems: true,
      description: 'Active check-ins of that employee to void. At least one of void and add.',
    }),
  ),
  add: Type.Optional(
    Type.Array(Addition, {
      maxItems: MAX_CORRECTION_ITEMS,
      description: 'Check-ins to add. At least one of void and add.',
    }),
  ),
};

export const CreateCorrectionBody = named(
  'CreateCheckInCorrectionBody',
  Type.Object(
    { employee_id: Uuid('An employee of this company.'), ...correctionRequest },
    { additionalProperties: false },
  ),
);

/** A worker's own request in the portal. */
export const WorkerCorrectionBody = Type.Object(correctionRequest, { additionalProperties: false });

/** The portal's request: the worker's approval, signed with their passkey when they have one (issue 35). */
export const SignedWorkerCorrectionBody = Type.Object(
  { ...correctionRequest, assertion: Type.Optional(AuthenticationResponse) },
  { additionalProperties: false },
);

export const RejectCorrectionBody = named(
  'RejectCheckInCorrectionBody',
  Type.Object({ reason: Reason('Why the correction is rejected.') }, { additionalProperties: false }),
);

export const ListCorrectionsQuery = named(
  'ListCheckInCorrectionsQuery',
  Type.Object(
    {
      ...PageQuery,
      ...UpdatedSinceQuery,
      employee_id: Type.Optional(Uuid()),
      status: Type.Optional(Type.Enum(CORRECTION_STATUSES)),
    },
    { additionalProperties: false },
  ),
);
