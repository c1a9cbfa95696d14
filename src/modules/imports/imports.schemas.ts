import { Type } from 'typebox';
import { Nullable, Uuid } from '../../platform/common.schemas.ts';

/** An uploaded staff list (issue 39): the file's bytes in base64, as the browser reads them. */
export const ImportEmployeesBody = Type.Object(
  {
    format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')]),
    content: Type.String({
      minLength: 1,
      maxLength: 8 * 1024 * 1024,
      contentEncoding: 'base64',
      description: 'The file, base64-encoded.',
    }),
    commit: Type.Optional(
      Type.Boolean({
        description:
          'false (the default): a preview, nothing kept. true: every row, or none when any is wrong.',
      }),
    ),
    invite: Type.Optional(
      Type.Boolean({ description: 'Invite each imported worker to the portal once the import is kept.' }),
    ),
  },
  { additionalProperties: false },
);

export const ImportResult = Type.Object({
  committed: Type.Boolean({ description: 'Whether the rows were kept (a preview never is).' }),
  rows: Type.Array(
    Type.Object({
      line: Type.Integer({ description: 'The line in the file (the header is line 1).' }),
      name: Type.String(),
      email: Nullable(Type.String()),
      errors: Type.Record(Type.String(), Type.Array(Type.String()), {
        description: 'Each field of the row that is wrong, with its messages; empty: the row is fine.',
      }),
      employee_id: Nullable(Uuid('The hired employee (a kept import).')),
      invitation: Nullable(
        Type.Object({
          emailed: Type.Boolean(),
          url: Type.Optional(Type.String({ description: 'The link to hand over, when no e-mail was sent.' })),
        }),
      ),
    }),
  ),
  ignored_columns: Type.Array(Type.String(), { description: 'Headers that name no field of the form.' }),
  rows_with_errors: Type.Integer(),
});

/** An uploaded week plan (issue 39): a row per employee and week, a column per day. */
export const ImportShiftsBody = Type.Object(
  {
    format: ImportEmployeesBody.properties.format,
    content: ImportEmployeesBody.properties.content,
    commit: ImportEmployeesBody.properties.commit,
  },
  { additionalProperties: false },
);

export const ShiftImportResult = Type.Object({
  committed: Type.Boolean({ description: 'Whether the shifts were kept (a preview never is).' }),
  rows: Type.Array(
    Type.Object({
      line: Type.Integer({ description: 'The line in the file (the header is line 1).' }),
      name: Type.String({ description: 'The employee the row names, or what it says when it names none.' }),
      shifts: Type.Integer({ description: 'The draft shifts the row places.' }),
      errors: Type.Record(Type.String(), Type.Array(Type.String()), {
        description: 'Each column of the row that is wrong (the day’s header), with its messages.',
      }),
    }),
  ),
  ignored_columns: Type.Array(Type.String()),
  rows_with_errors: Type.Integer(),
  shifts: Type.Integer({ description: 'The draft shifts placed (a kept import) or to place (a preview).' }),
});
