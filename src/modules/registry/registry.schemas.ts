import { Type } from 'typebox';
import { Actor, Instant, Nullable, named, Uuid } from '../../platform/common.schemas.ts';
import { PageQuery } from '../../platform/pagination.ts';

export const VerifyRegistryQuery = Type.Object(
  { company_id: Type.Optional(Uuid('Only this company’s chains (default: every company).')) },
  { additionalProperties: false },
);

export const RegistryProblem = named(
  'RegistryProblem',
  Type.Object(
    {
      kind: Type.String({
        description:
          'chain_sequence, chain_link, chain_hash, fact_mismatch, fact_without_entry, entry_without_fact, recorded_into_closed_month, figures_mismatch or seal_mismatch (docs/registry.md, Verification).',
      }),
      employee_id: Type.Optional(Uuid()),
      entry: Type.Optional(
        Type.Integer({ description: 'The entry of that employee’s chain (its seq; 0: none).' }),
      ),
      expected: Type.String(),
      found: Type.String(),
    },
    { additionalProperties: false },
  ),
);

export const RegistryVerification = named(
  'RegistryVerification',
  Type.Object(
    {
      ok: Type.Boolean({
        description: 'True when verification found no problem.',
      }),
      entries: Type.Integer({ description: 'Chain entries read.' }),
      problems: Type.Array(RegistryProblem, {
        maxItems: 1000,
        description: 'Every problem found (at most 1,000; problems_truncated says when there were more).',
      }),
      problems_truncated: Type.Optional(Type.Boolean()),
      broken: Type.Optional(
        Type.Object({
          employee_id: Uuid(),
          entry: Type.Integer({
            description: 'The first problem’s entry of that employee’s chain (its seq; 0: none).',
          }),
          expected: Type.String(),
          found: Type.String(),
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const MonthParams = Type.Object(
  { month: Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', maxLength: 7, description: 'YYYY-MM' }) },
  { additionalProperties: false },
);

export const ClosedMonth = named(
  'ClosedMonth',
  Type.Object(
    {
      month: Type.String({ description: 'YYYY-MM' }),
      closed_at: Instant(),
      closed_by: Actor('Who closed it.'),
      seal: Nullable(
        Type.String({
          description:
            "The month's seal (hex SHA-256 over its closing entries): keep it to prove a later rewrite.",
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const ListClosedMonthsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
