import { Type } from 'typebox';
import { named, Uuid } from '../../platform/common.schemas.ts';

export const VerifyRegistryQuery = Type.Object(
  { company_id: Type.Optional(Uuid('Only this company’s chains (default: every company).')) },
  { additionalProperties: false },
);

export const RegistryVerification = named(
  'RegistryVerification',
  Type.Object(
    {
      ok: Type.Boolean({
        description: 'True when every chain recomputes and every check-in says what was recorded.',
      }),
      entries: Type.Integer({ description: 'Chain entries read.' }),
      broken: Type.Optional(
        Type.Object({
          employee_id: Uuid(),
          entry: Type.Integer({
            description: 'The first broken entry of that employee’s chain (its seq; 0: none).',
          }),
          expected: Type.String(),
          found: Type.String(),
        }),
      ),
    },
    { additionalProperties: false },
  ),
);
