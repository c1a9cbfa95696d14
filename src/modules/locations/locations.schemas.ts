import { Type } from 'typebox';
import { Instant, named, TimeZoneName, Uuid } from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';

export const Location = named(
  'Location',
  Type.Object({
    id: Uuid(),
    name: Type.String(),
    timezone: Type.String({ description: 'IANA time zone of the location.' }),
    created_at: Instant(),
    updated_at: Instant(),
  }),
);

export const ListLocationsQuery = named(
  'ListLocationsQuery',
  Type.Object({ ...PageQuery, ...UpdatedSinceQuery }, { additionalProperties: false }),
);

export const CreateLocationBody = named(
  'CreateLocationBody',
  Type.Object(
    { name: Type.String({ minLength: 1, maxLength: 200 }), timezone: Type.Optional(TimeZoneName()) },
    { additionalProperties: false },
  ),
);
