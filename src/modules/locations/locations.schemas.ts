import { Type } from 'typebox';
import {
  IdentityNumber,
  Instant,
  Nullable,
  named,
  Region,
  TimeZoneName,
  Uuid,
} from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';

export const LocationCapture = named(
  'LocationCapture',
  Type.Enum(['off', 'at_punch'], {
    type: 'string',
    description:
      'Whether a punch of this centre’s workers carries where it was made: `off` (the default: never) or `at_punch` (the portal and the kiosk ask for the position at the moment of the punch, after telling the worker why; the worker may decline). Never a track.',
  }),
);

export const Geofence = named(
  'Geofence',
  Type.Object(
    {
      latitude: Type.Number({ minimum: -90, maximum: 90 }),
      longitude: Type.Number({ minimum: -180, maximum: 180 }),
      radius_m: Type.Integer({ minimum: 10, maximum: 100_000, description: 'The radius, in metres.' }),
    },
    {
      additionalProperties: false,
      description:
        'The work centre’s circle: a punch farther from its centre than the radius is `outside_geofence`.',
    },
  ),
);

export const Location = named(
  'Location',
  Type.Object({
    id: Uuid(),
    name: Type.String(),
    timezone: Type.String({ description: 'IANA time zone of the location.' }),
    address: Nullable(Type.String({ description: 'The work centre’s postal address.' })),
    ccc: Nullable(
      Type.String({
        description:
          'Its Social Security contribution account code (código cuenta de cotización), 11 digits.',
      }),
    ),
    region: Nullable(Region('Null: the company’s default.')),
    municipality: Nullable(
      Type.String({ description: 'Its municipality (its local holidays are its own).' }),
    ),
    location_capture: LocationCapture,
    geofence: Nullable(Geofence),
    created_at: Instant(),
    updated_at: Instant(),
  }),
);

export const ListLocationsQuery = named(
  'ListLocationsQuery',
  Type.Object({ ...PageQuery, ...UpdatedSinceQuery }, { additionalProperties: false }),
);

const locationFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  timezone: TimeZoneName(),
  address: Nullable(Type.String({ minLength: 1, maxLength: 500 })),
  ccc: Nullable(IdentityNumber('11 digits with the two control digits; checked.')),
  region: Nullable(
    Region(
      'Its autonomous community: its national and regional holidays are applied to its employees in the open period (null: the company’s default region).',
    ),
  ),
  municipality: Nullable(Type.String({ minLength: 1, maxLength: 200 })),
  location_capture: LocationCapture,
  geofence: Nullable(Geofence),
};

export const CreateLocationBody = named(
  'CreateLocationBody',
  Type.Object(
    {
      name: locationFields.name,
      timezone: Type.Optional(locationFields.timezone),
      address: Type.Optional(locationFields.address),
      ccc: Type.Optional(locationFields.ccc),
      region: Type.Optional(locationFields.region),
      municipality: Type.Optional(locationFields.municipality),
      location_capture: Type.Optional(locationFields.location_capture),
      geofence: Type.Optional(locationFields.geofence),
    },
    { additionalProperties: false },
  ),
);

export const UpdateLocationBody = Type.Object(
  {
    name: Type.Optional(locationFields.name),
    timezone: Type.Optional(locationFields.timezone),
    address: Type.Optional(locationFields.address),
    ccc: Type.Optional(locationFields.ccc),
    region: Type.Optional(locationFields.region),
    municipality: Type.Optional(locationFields.municipality),
    location_capture: Type.Optional(locationFields.location_capture),
    geofence: Type.Optional(locationFields.geofence),
  },
  { additionalProperties: false, minProperties: 1 },
);
