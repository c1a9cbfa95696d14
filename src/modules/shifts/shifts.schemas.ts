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
    examples: ['09:00'],
  }),
);
const LocalTime = (_description: string) => LOCAL_TIME;

export const ShiftKind = Type.Enum(['work', 'on_call'], {
  type: 'string',
  description:
    'work: planned working time. on_call: availability (guardia), not work: it plans no expected minutes; check-ins during it count as work and are reported apart.',
});

export const ShiftStatus = Type.Enum(['draft', 'published'], {
  type: 'string',
  description:
    'draft: the planner’s, not shown to the worker and planning nothing. published: shown to the worker; its day’s expected minutes come from the published shifts.',
});

const BreakMinutes = Type.Integer({
  minimum: 0,
  maximum: 1440,
  description: 'Planned break, in minutes, not counted as work.',
});

export const Shift = named(
  'Shift',
  Type.Object(
    {
      id: Uuid(),
      employee_id: Uuid(),
      date: CalendarDate('The shift’s date: the local date of its start.'),
      start: LocalTime('Start, local time in the employee’s zone on that date.'),
      end: LocalTime('End, local time; at or before start: the next day.'),
      break_minutes: BreakMinutes,
      planned_minutes: Type.Integer({
        description:
          'The work it plans: end − start (the real length, across a clock change) − break; 0 for on_call.',
      }),
      location_id: Nullable(Uuid('Where, when it is not the employee’s own work centre.')),
      work_mode: Nullable(WorkMode),
      kind: ShiftKind,
      status: ShiftStatus,
      note: Nullable(Type.String()),
      template_id: Nullable(Uuid('The template it was made from, if any.')),
      published_at: Nullable(Instant('When it was last published.')),
      created_at: Instant(),
      updated_at: Instant(),
    },
    {
      examples: [
        {
          id: '0195d2a0-7c41-7e2b-9a55-3c1f0b6d2e20',
          employee_id: '0195d2a0-7c41-7e2b-9a55-3c1f0b6d2e21',
          date: '2026-12-14',
          start: '22:00',
          end: '06:00',
          break_minutes: 30,
          planned_minutes: 450,
          location_id: null,
          work_mode: 'on_site',
          kind: 'work',
          status: 'published',
          note: null,
          template_id: null,
          published_at: '2026-12-07T10:00:00Z',
          created_at: '2026-12-07T09:00:00Z',
          updated_at: '2026-12-07T10:00:00Z',
        },
      ],
    },
  ),
);

const shiftFields = {
  employee_id: Uuid(),
  date: CalendarDate('The local date of its start; not a date that has passed.'),
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
    description: 'A new shift; `status` defaults to draft, `kind` to work, `break_minutes` to 0.',
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
          { id: Type.Optional(Uuid('An existing shift to replace; left out: a new shift.')), ...shiftFields },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: MAX_BULK_SHIFTS },
      ),
    },
    { additionalProperties: false },
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
      status: Type.Optional(ShiftStatus),
      from: Type.Optional(CalendarDate('First date.')),
      to: Type.Optional(CalendarDate('Last date, inclusive.')),
    },
    { additionalProperties: false },
  ),
);

export const PublishShiftsBody = named(
  'PublishShiftsBody',
  Type.Object(
    {
      from: CalendarDate('First date.'),
      to: CalendarDate('Last date, inclusive; at most 62 days after from.'),
      employee_ids: Type.Optional(Type.Array(Uuid(), { minItems: 1, maxItems: 5000 })),
    },
    { additionalProperties: false },
  ),
);

export const PublishResult = Type.Object({
  published: Type.Integer({ description: 'Drafts published.' }),
});

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

export const RotaPattern = named(
  'RotaPattern',
  Type.Object({
    id: Uuid(),
    name: Type.String(),
    cycle: Type.Array(Nullable(Uuid()), {
      description: 'The cycle’s days in order: a shift template, or null for a day of rest.',
    }),
    created_at: Instant(),
    updated_at: Instant(),
  }),
);

const RotaApplication = named(
  'RotaApplication',
  Type.Object(
    {
      employee_ids: Type.Array(Uuid(), { minItems: 1, maxItems: 5000 }),
      from: CalendarDate('The first date, which is the cycle’s first day.'),
      to: CalendarDate('The last date, inclusive; at most 366 days after from.'),
    },
    { additionalProperties: false },
  ),
);

export const CreateRotaPatternBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    cycle: Type.Array(Nullable(Uuid()), { minItems: 1, maxItems: 366 }),
    apply: Type.Optional(RotaApplication),
  },
  { additionalProperties: false },
);

export const ApplyRotaPatternBody = RotaApplication;

export const RotaApplied = named(
  'RotaApplied',
  Type.Object({
    created: Type.Integer({ description: 'Draft shifts created.' }),
    replaced: Type.Integer({ description: 'Draft shifts of those employees and dates replaced.' }),
    skipped: Type.Integer({
      description: 'Days left as they were: a published shift there, or not employed.',
    }),
  }),
);

export const RotaPatternCreated = Type.Object({
  pattern: RotaPattern,
  applied: Nullable(RotaApplied),
});
