import { Type } from 'typebox';
import { named } from '../../platform/common.schemas.ts';

export const AbsenceTypeRef = named(
  'AbsenceTypeRef',
  Type.Object(
    {
      key: Type.String({
        description: 'Stable key that client logic uses: vacation, sick_leave or a custom key.',
      }),
      label: Type.String({ description: 'Display text.' }),
    },
    { description: 'An absence type. The set of keys is extensible.' },
  ),
);

export const CreateAbsenceTypeBody = Type.Object(
  {
    key: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$', description: 'Lower-case letters, digits and _.' }),
    label: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);
