import { Type } from 'typebox';
import { named } from './common.schemas.ts';
import { ERROR_CODES } from './errors.ts';

export const ProblemSchema = named(
  'Problem',
  Type.Object(
    {
      type: Type.String({ description: 'Address of the documentation of the error code.' }),
      title: Type.String(),
      status: Type.Integer(),
      code: Type.Union(
        ERROR_CODES.map((code) => Type.Literal(code)),
        {
          description: 'Stable error code; clients program against it.',
        },
      ),
      detail: Type.String(),
      errors: Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Extra data: errors.required_scope for invalid_scope; for validation_failed, each field path mapped to a list of messages.',
      }),
    },
    { description: 'RFC 9457 problem details.' },
  ),
);
