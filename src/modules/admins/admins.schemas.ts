import { Type } from 'typebox';
import { Instant, Nullable, Uuid } from '../../platform/common.schemas.ts';
import { Company } from '../companies/companies.schemas.ts';

export const Admin = Type.Object({
  id: Uuid(),
  company_id: Uuid(),
  email: Type.String(),
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
  },
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
