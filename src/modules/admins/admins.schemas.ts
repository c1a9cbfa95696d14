import { Type } from 'typebox';
import { Instant, Nullable, Uuid } from '../../platform/common.schemas.ts';

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
