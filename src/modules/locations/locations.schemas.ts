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
  },
  { additionalProperties: false, minProperties: 1 },
);
