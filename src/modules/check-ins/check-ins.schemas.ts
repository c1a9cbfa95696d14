import { Type } from 'typebox';
import { Actor, Instant, Nullable, named, Uuid } from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';

export const CHECK_IN_TYPES = ['in', 'out', 'break_start', 'break_end'] as const;

export const CheckInType = named(
  'CheckInType',
  Type.Enum(CHECK_IN_TYPES, {
    type: 'string',
    description: '`in` opens a shift, `out` closes it; `break_start` and `break_end` mark a break inside it.',
  }),
);

export const WorkMode = named(
  'WorkMode',
  Type.Enum(['on_site', 'remote'], { type: 'string', description: 'Where the work was done.' }),
);

export const PunchLocation = named(
  'PunchLocation',
  Type.Union(
    [
      Type.Literal('declined', {
        description: 'The work centre asked for the position and the worker said no.',
      }),
      Type.Object({
        latitude: Type.Number({ description: 'Rounded to three decimals (about 100 m).' }),
        longitude: Type.Number({ description: 'Rounded to three decimals (about 100 m).' }),
        accuracy_m: Type.Integer({ description: 'The device’s accuracy, in metres.' }),
        distance_m: Nullable(Type.Integer({ description: 'To the work centre’s geofence centre, to 10 m.' })),
        outside_geofence: Nullable(Type.Boolean({ description: 'Null when the centre has no geofence.' })),
      }),
    ],
    {
      description:
        'Where the punch was made, only when the worker’s work centre asks for it at the punch (`location_capture: at_punch`); null otherwise.',
    },
  ),
);

/** What the portal and the kiosk send of a punch's position: the device's reading, or the worker's refusal. */
export const PunchPositionBody = Type.Union([
  Type.Literal('declined'),
  Type.Object(
    {
      latitude: Type.Number({ minimum: -90, maximum: 90 }),
      longitude: Type.Number({ minimum: -180, maximum: 180 }),
      accuracy_m: Type.Number({ minimum: 0, maximum: 100_000 }),
    },
    { additionalProperties: false },
  ),
]);

export const CheckIn = named(
  'CheckIn',
  Type.Object({
    id: Uuid(),
    employee_id: Uuid(),
    type: CheckInType,
    timestamp: Instant('When the event happened, at one-second resolution.'),
    source: Type.Enum(['api', 'dashboard', 'portal', 'correction', 'kiosk', 'import'], {
      description:
        'Where the check-in was recorded: `api` (an API key), `dashboard` (an administrator), `portal` (the worker), `kiosk` (the worker, on a shared kiosk: see device_id), `correction` (added by an applied correction), `import`. Extensible.',
    }),
    work_mode: Nullable(WorkMode),
    status: Type.Enum(['active', 'voided'], {
      description:
        'A voided check-in (by an applied correction) stays in the registry but counts in no figure.',
    }),
    voided_by_correction_id: Nullable(Uuid('The correction that voided it.')),
    correction_id: Nullable(Uuid('The correction that added it (source `correction`).')),
    late: Type.Boolean({
      description: "Recorded more than the company's late_record_hours (24 by default) after its timestamp.",
    }),
    device_id: Nullable(
      Uuid('The shared kiosk the worker punched on (source `kiosk`); null for every other record.'),
    ),
    location: Nullable(PunchLocation),
    recorded_offline: Type.Boolean({
      description:
        'Made on a device without a connection (the portal’s app or a kiosk), kept there signed, and sent when the connection returned; its timestamp is the device’s clock.',
    }),
    device_time: Nullable(
      Instant('The device’s clock when a punch made offline was made (recorded_offline); null otherwise.'),
    ),
    received_at: Instant(
      'When Jornada received it: for a punch made offline, when the device sent it (millisecond precision).',
    ),
    recorded_at: Instant('When Jornada stored it (millisecond precision).'),
    recorded_by: Actor('Who recorded it.'),
    worker_confirmed: Type.Boolean({
      description:
        "The worker's own record (portal, terminal key within 10 minutes, approved correction); false when an integration or an administrator made it.",
    }),
    worker_response: Nullable(
      Type.Object(
        {
          status: Type.Enum(['accepted', 'rejected'], { type: 'string' }),
          reason: Nullable(Type.String()),
          at: Instant(),
        },
        { description: "The worker's answer to a record they did not make; null until given." },
      ),
    ),
    created_at: Instant(),
    updated_at: Instant('Changes only when a correction voids the check-in.'),
  }),
);

export const CreateCheckInBody = named(
  'CreateCheckInBody',
  Type.Object(
    {
      employee_id: Uuid('An employee of this company.'),
      type: CheckInType,
      timestamp: Instant(
        'ISO 8601 instant with an offset. Fractional seconds are truncated. At most 5 minutes in the future, not before the hire date, not after the termination date.',
      ),
      work_mode: Type.Optional(WorkMode),
    },
    { additionalProperties: false },
  ),
);

export const ListCheckInsQuery = named(
  'ListCheckInsQuery',
  Type.Object(
    {
      ...PageQuery,
      ...UpdatedSinceQuery,
      employee_id: Type.Optional(Uuid()),
      from: Type.Optional(Instant('Only check-ins with timestamp at or after this instant.')),
      to: Type.Optional(Instant('Only check-ins with timestamp before this instant.')),
      status: Type.Optional(
        Type.Enum(['active', 'voided', 'all'], {
          description:
            'Which check-ins: by default `active` ones, or all of them when `updated_since` is given (a sync must see a check-in that a correction voided).',
        }),
      ),
      outside_geofence: Type.Optional(
        Type.Boolean({
          description:
            'true: only the punches made outside their work centre’s geofence (`location.outside_geofence`).',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);
