import { Type } from 'typebox';
import { Instant, Nullable, named, Uuid } from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';

export const Unit = named(
  'Unit',
  Type.Object({
    id: Uuid(),
    name: Type.String(),
    parent_id: Nullable(Uuid('The parent unit, or null for a top-level unit.')),
    location_id: Nullable(Uuid()),
    created_at: Instant(),
    updated_at: Instant(),
  }),
);

export const ListUnitsQuery = named(
  'ListUnitsQuery',
  Type.Object({ ...PageQuery, ...UpdatedSinceQuery }, { additionalProperties: false }),
);

/** A unit's change from the dashboard (issue 39): its name, the unit above it, its work centre. */
export const UpdateUnitBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    parent_id: Type.Optional(Nullable(Uuid())),
    location_id: Type.Optional(Nullable(Uuid())),
  },
  { additionalProperties: false },
);

export const CreateUnitBody = named(
  'CreateUnitBody',
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 200 }),
      parent_id: Type.Optional(Nullable(Uuid())),
      location_id: Type.Optional(Nullable(Uuid())),
    },
    { additionalProperties: false },
  ),
);
