import { Type } from 'typebox';
import { Instant, named, Uuid } from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';

/**
 * The time concepts of the payroll_variables report (docs/payroll.md): ordinary, both kinds of overtime and
 * complementary hours add up to the worked time; night, holiday worked and on-call are parts of it paid on top.
 */
export const TIME_CONCEPTS = [
  'ordinary',
  'overtime_paid',
  'overtime_time_off',
  'complementary',
  'night',
  'holiday_worked',
  'on_call',
] as const;
export type TimeConcept = (typeof TIME_CONCEPTS)[number];

/** The columns a concept map can lay out, in the generic preset's order. */
export const PAYROLL_COLUMNS = [
  'worker_id',
  'employee_id',
  'employee_name',
  'month',
  'concept',
  'code',
  'concept_name',
  'hours',
  'minutes',
  'days',
  'from',
  'to',
  'provisional',
] as const;
export type PayrollColumn = (typeof PAYROLL_COLUMNS)[number];

export const WORKER_IDENTIFIERS = ['external_id', 'national_id', 'naf'] as const;

const Code = Type.String({ minLength: 1, maxLength: 40 });

const Codes = named(
  'PayrollCodes',
  Type.Object(Object.fromEntries(TIME_CONCEPTS.map((concept) => [concept, Type.Optional(Code)])), {
    additionalProperties: false,
    description: 'Your payroll code per time concept; a concept without one is written with its own key.',
  }),
);
const AbsenceCodes = named(
  'PayrollAbsenceCodes',
  Type.Record(Type.String({ pattern: '^[a-z0-9_]{1,40}$' }), Code, {
    description: 'Your payroll code per absence type key (e.g. `sick_leave`); others use `absence:<key>`.',
  }),
);
/** One column of the file. */
const ColumnName = named('PayrollColumn', Type.Enum([...PAYROLL_COLUMNS]));
const Columns = named(
  'PayrollColumns',
  Type.Array(ColumnName, {
    minItems: 1,
    maxItems: PAYROLL_COLUMNS.length,
    uniqueItems: true,
    description: 'The file’s columns, in order (default: all, as listed in the generic preset).',
  }),
);
const Headers = named(
  'PayrollHeaders',
  Type.Object(
    {},
    {
      propertyNames: ColumnName,
      additionalProperties: Type.String({ minLength: 1, maxLength: 60 }),
      description: 'A header of your own per column; others get the locale’s.',
    },
  ),
);
const WorkerIdentifier = named(
  'PayrollWorkerIdentifier',
  Type.Enum([...WORKER_IDENTIFIERS], {
    description:
      'What `worker_id` holds: `external_id`, `national_id` (DNI/NIE) or `naf` (social security number).',
  }),
);
const Name = Type.String({ minLength: 1, maxLength: 120 });

export const PayrollConceptMap = named(
  'PayrollConceptMap',
  Type.Object({
    id: Uuid(),
    name: Name,
    preset: Type.Enum(['generic']),
    worker_identifier: WorkerIdentifier,
    codes: Codes,
    absence_codes: AbsenceCodes,
    columns: Columns,
    headers: Headers,
    created_at: Instant(),
    updated_at: Instant(),
  }),
);

export const CreatePayrollConceptMapBody = named(
  'CreatePayrollConceptMapBody',
  Type.Object(
    {
      name: Name,
      preset: Type.Optional(Type.Enum(['generic'], { description: 'The starting layout; `generic` only.' })),
      worker_identifier: Type.Optional(WorkerIdentifier),
      codes: Type.Optional(Codes),
      absence_codes: Type.Optional(AbsenceCodes),
      columns: Type.Optional(Columns),
      headers: Type.Optional(Headers),
    },
    { additionalProperties: false },
  ),
);

export const UpdatePayrollConceptMapBody = named(
  'UpdatePayrollConceptMapBody',
  Type.Object(
    {
      name: Type.Optional(Name),
      worker_identifier: Type.Optional(WorkerIdentifier),
      codes: Type.Optional(Codes),
      absence_codes: Type.Optional(AbsenceCodes),
      columns: Type.Optional(Columns),
      headers: Type.Optional(Headers),
    },
    { additionalProperties: false, description: 'Each field given replaces the stored one whole.' },
  ),
);

export const ListPayrollConceptMapsQuery = named(
  'ListPayrollConceptMapsQuery',
  Type.Object({ ...PageQuery, ...UpdatedSinceQuery }, { additionalProperties: false }),
);
