import { Type } from 'typebox';
import { CalendarDate, Instant, Nullable, named, Uuid } from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';
import { WorkMode } from '../check-ins/check-ins.schemas.ts';

/** A local time of day, HH:MM (24 hours), in the employee's zone; an end at or before the start is the next day's. */
const LOCAL_TIME = named(
  'LocalTime',
  Type.String({
    pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
    description:
      'HH:MM, local time in the employee’s zone on the shift’s date; an end at or before the start is the next day’s.',
  }),
);
const LocalTime = (_description: string) => LOCAL_TIME;

export const ShiftKind = named(
  'ShiftKind',
  Type.Enum(['work', 'on_call'], {
    type: 'string',
    description: 'on_call: availability, planning no minutes.',
  }),
);

export const ShiftStatus = named(
  'ShiftStatus',
  Type.Enum(['draft', 'published'], {
    type: 'string',
    description: 'Only published shifts are the worker’s and plan minutes.',
  }),
);

const BreakMinutes = named(
  'BreakMinutes',
  Type.Integer({ minimum: 0, maximum: 1440, description: 'Minutes of planned break.' }),
);

export const Shift = named(
  'Shift',
  Type.Object(
    {
      id: Uuid(),
      employee_id: Uuid(),
      date: CalendarDate('The local date of its start.'),
      start: LocalTime(''),
      end: LocalTime(''),
      break_minutes: BreakMinutes,
      planned_minutes: Type.Integer({ description: 'end − start (real length) − break; 0 on call.' }),
      location_id: Nullable(Uuid()),
      work_mode: Nullable(WorkMode),
      kind: ShiftKind,
      status: ShiftStatus,
      note: Nullable(Type.String()),
      template_id: Nullable(Uuid()),
      published_at: Nullable(Instant()),
      created_at: Instant(),
      updated_at: Instant(),
    },
    {},
  ),
);

const shiftFields = {
  employee_id: Uuid(),
  date: CalendarDate(),
  start: LocalTime('Start, local time.'),
  end: LocalTime('End, local time; at or before start: the next day.'),
  break_minutes: Type.Optional(BreakMinutes),
  location_id: Type.Optional(Nullable(Uuid())),
  work_mode: Type.Optional(Nullable(WorkMode)),
  kind: Type.Optional(ShiftKind),
  status: Type.Optional(ShiftStatus),
  note: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  template_id: Type.Optional(Nullable(Uuid())),
};

export const CreateShiftBody = named(
  'CreateShiftBody',
  Type.Object(shiftFields, {
    additionalProperties: false,
    description: 'Defaults: draft, work, no break.',
  }),
);

export const UpdateShiftBody = named(
  'UpdateShiftBody',
  Type.Object(
    {
      date: Type.Optional(shiftFields.date),
      start: Type.Optional(shiftFields.start),
      end: Type.Optional(shiftFields.end),
      break_minutes: shiftFields.break_minutes,
      location_id: shiftFields.location_id,
      work_mode: shiftFields.work_mode,
      kind: shiftFields.kind,
      status: shiftFields.status,
      note: shiftFields.note,
    },
    { additionalProperties: false, minProperties: 1 },
  ),
);

export const MAX_BULK_SHIFTS = 5000;

export const BulkShiftsBody = named(
  'BulkShiftsBody',
  Type.Object(
    {
      shifts: Type.Array(
        Type.Object(
          { id: Type.Optional(Uuid('A shift to replace.')), ...shiftFields },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: MAX_BULK_SHIFTS },
      ),
    },
    {
      additionalProperties: false,
    },
  ),
);

export const ListShiftsQuery = named(
  'ListShiftsQuery',
  Type.Object(
    {
      ...PageQuery,
      ...UpdatedSinceQuery,
      employee_id: Type.Optional(Uuid()),
      location_id: Type.Optional(Uuid()),
      status: Type.Optional(Type.Enum(['draft', 'published'], { type: 'string' })),
      from: Type.Optional(CalendarDate()),
      to: Type.Optional(CalendarDate('Inclusive.')),
    },
    { additionalProperties: false },
  ),
);

export const PublishShiftsBody = named(
  'PublishShiftsBody',
  Type.Object(
    {
      from: CalendarDate('First date.'),
      to: CalendarDate('Inclusive; 62 days after from at most.'),
      employee_ids: Type.Optional(Type.Array(Uuid(), { minItems: 1, maxItems: 5000 })),
    },
    { additionalProperties: false },
  ),
);

export const PublishResult = named(
  'PublishResult',
  Type.Object({
    published: Type.Integer(),
  }),
);

export const BulkShiftsResult = named(
  'BulkShiftsResult',
  Type.Object({ ids: Type.Array(Uuid(), { description: 'The shifts’ ids, in the order given.' }) }),
);

export const ShiftTemplate = named(
  'ShiftTemplate',
  Type.Object({
    id: Uuid(),
    name: Type.String(),
    start: LocalTime('Start, local time.'),
    end: LocalTime('End, local time; at or before start: the next day.'),
    break_minutes: BreakMinutes,
    kind: ShiftKind,
    created_at: Instant(),
    updated_at: Instant(),
  }),
);

export const CreateShiftTemplateBody = named(
  'CreateShiftTemplateBody',
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 100 }),
      start: LocalTime('Start, local time.'),
      end: LocalTime('End, local time; at or before start: the next day.'),
      break_minutes: Type.Optional(BreakMinutes),
      kind: Type.Optional(ShiftKind),
    },
    { additionalProperties: false },
  ),
);

export const ListTemplatesQuery = Type.Object(
  { ...PageQuery, ...UpdatedSinceQuery },
  { additionalProperties: false },
);

export const RotaApplied = named(
  'RotaApplied',
  Type.Object({
    created: Type.Integer(),
    replaced: Type.Integer({ description: 'Drafts replaced.' }),
    skipped: Type.Integer({ description: 'Days left as they were.' }),
  }),
);

export const RotaPattern = named(
  'RotaPattern',
  Type.Object({
    id: Uuid(),
    name: Type.String(),
    cycle: Type.Array(Nullable(Uuid()), { description: 'Templates, or null for rest.' }),
    applied: Type.Optional(RotaApplied),
    created_at: Instant(),
    updated_at: Instant(),
  }),
);

const RotaApplication = named(
  'RotaApplication',
  Type.Object(
    {
      employee_ids: Type.Array(Uuid(), { minItems: 1, maxItems: 5000 }),
      from: CalendarDate('The cycle’s first day.'),
      to: CalendarDate('Inclusive; 366 days after from at most.'),
    },
    { additionalProperties: false },
  ),
);

export const CreateRotaPatternBody = named(
  'CreateRotaPatternBody',
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 100 }),
      cycle: Type.Array(Nullable(Uuid()), { minItems: 1, maxItems: 366 }),
      apply: Type.Optional(RotaApplication),
    },
    { additionalProperties: false },
  ),
);

export const ApplyRotaPatternBody = RotaApplication;
