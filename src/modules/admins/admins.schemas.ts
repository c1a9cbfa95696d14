import { Type } from 'typebox';
import { Instant, Nullable, Uuid } from '../../platform/common.schemas.ts';
import { Company } from '../companies/companies.schemas.ts';

export const Role = Type.Union(
  [Type.Literal('owner'), Type.Literal('admin'), Type.Literal('team_lead'), Type.Literal('payroll')],
  {
    description:
      'owner: everything; admin: everything but the administrators and the API addon; team_lead: the employees of their units only; payroll: read-only.',
  },
);

const UnitIds = Type.Array(Uuid(), {
  maxItems: 100,
  uniqueItems: true,
  description: "A team lead's units (their people, and the units below them); empty for the other roles.",
});

export const Admin = Type.Object({
  id: Uuid(),
  company_id: Uuid(),
  email: Type.String(),
  role: Role,
  unit_ids: UnitIds,
  created_at: Instant(),
  disabled_at: Type.Optional(
    Nullable(Instant('When another administrator disabled this one; null: active.')),
  ),
});

export const Password = Type.String({
  minLength: 12,
  maxLength: 200,
  description: 'At least 12 characters.',
});

export const CreateAdminBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    password: Password,
    role: Type.Optional(Role),
    unit_ids: Type.Optional(UnitIds),
  },
  { additionalProperties: false },
);

/** An owner changes another administrator's role (and a team lead's units). */
export const UpdateAdminBody = Type.Object(
  { role: Role, unit_ids: Type.Optional(UnitIds) },
  { additionalProperties: false },
);

export const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);

const Language = (options: { description?: string } = {}) =>
  Type.Union([Type.Literal('es'), Type.Literal('en')], options);

/** The dashboard's session as the dashboard reads it: the administrator, the language, the company, the token. */
export const SessionView = Type.Object({
  admin: Type.Object({
    id: Uuid(),
    email: Type.String(),
    language: Type.Union([Language(), Type.Null()], {
      description: "The dashboard's language the administrator chose; null: the company's default.",
    }),
    role: Role,
    unit_ids: UnitIds,
  }),
  can: Type.Array(Type.String(), {
    description:
      "The dashboard's operations the role allows (operationIds without the data mode): the screens offer only these.",
  }),
  language: Language({
    description:
      "The language the dashboard speaks: the administrator's choice, else Spanish for a company whose time zone is in Spain, else English.",
  }),
  company: Company,
  csrf_token: Type.String({ description: 'Send it back as X-CSRF-Token on every state-changing call.' }),
});

export const UpdateMeBody = Type.Object(
  {
    language: Type.Union([Language(), Type.Null()], {
      description: "The dashboard's language for this administrator; null: the company's default.",
    }),
  },
  { additionalProperties: false },
);
