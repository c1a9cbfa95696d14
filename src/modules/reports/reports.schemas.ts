import { Type } from 'typebox';
import { CalendarDate, Instant, NullableInstant, named, Uuid } from '../../platform/common.schemas.ts';

export const REPORT_TYPES = [
  'time_registry_monthly',
  'check_ins_export',
  'time_registry_worker_monthly',
  'payroll_variables',
] as const;
export const REPORT_FORMATS = ['csv', 'xlsx', 'pdf'] as const;

/** The params of each type, validated after the body's shape (so the errors name `params.<field>`). */
/** How an export is laid out (issue 39); `en`, the default, is the layout v1 has always had. */
const ExportLocaleParam = Type.Enum(['en', 'es'], {
  description:
    'en (default): column keys as headers, commas, true/false. es: Spanish headers and file name, `;` between fields, sí/no, decimal commas, as Spanish Excel opens it.',
});

export const REPORT_PARAMS = {
  time_registry_monthly: Type.Object(
    {
      month: Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' }),
      employee_id: Type.Optional(Uuid('Only this employee.')),
      locale: Type.Optional(ExportLocaleParam),
    },
    { additionalProperties: false },
  ),
  time_registry_worker_monthly: Type.Object(
    {
      month: Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' }),
      employee_id: Type.Optional(Uuid('Only this worker (default: every worker of the month).')),
      locale: Type.Optional(Type.Enum(['es', 'en'], { description: 'The document’s language; default es.' })),
    },
    { additionalProperties: false },
  ),
  payroll_variables: Type.Object(
    {
      month: Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' }),
      concept_map_id: Type.Optional(Uuid('A concept map of the company (default: the generic layout).')),
      locale: Type.Optional(
        Type.Enum(['es', 'en'], {
          description: 'Default: the company’s language (es in Spain), then stored.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  check_ins_export: Type.Object(
    {
      from: CalendarDate('First date, in the company time zone.'),
      to: CalendarDate('Last date, inclusive; at most one year after from.'),
      employee_id: Type.Optional(Uuid('Only this employee.')),
      locale: Type.Optional(ExportLocaleParam),
    },
    { additionalProperties: false },
  ),
} as const;

export const CreateReportBody = named(
  'CreateReportBody',
  Type.Object(
    {
      type: Type.Enum([...REPORT_TYPES], {
        description:
          '`time_registry_monthly` (params `{ month, employee_id?, locale? }`, csv), `check_ins_export` (`{ from, to, employee_id?, locale? }`, at most a year; csv or xlsx), `time_registry_worker_monthly` (`{ month, employee_id?, locale? }`: a document per worker, pdf or xlsx) or `payroll_variables` (`{ month, concept_map_id?, locale? }`, csv or xlsx). `locale`: `en` (default) or `es` (Spanish headers, `;`, decimal commas).',
      }),
      format: Type.Enum([...REPORT_FORMATS], {
        description:
          '`csv`: all but `time_registry_worker_monthly`; `xlsx`: all but `time_registry_monthly`; `pdf`: `time_registry_worker_monthly`.',
      }),
      params: Type.Record(Type.String(), Type.Unknown(), { description: 'Depends on the type.' }),
    },
    { additionalProperties: false },
  ),
);

export const ReportAccepted = named(
  'ReportAccepted',
  Type.Object({
    id: Uuid(),
    status: Type.Literal('processing'),
  }),
);

export const Report = named(
  'Report',
  Type.Object({
    id: Uuid(),
    type: Type.Enum([...REPORT_TYPES]),
    format: Type.Enum([...REPORT_FORMATS]),
    params: Type.Record(Type.String(), Type.Unknown()),
    status: Type.Enum(['processing', 'completed', 'failed', 'expired'], {
      description:
        '`processing`, then `completed` or `failed`; a completed report becomes `expired` when its file is deleted, 7 days after completion.',
    }),
    created_at: Instant(),
    completed_at: NullableInstant(),
    download_url: Type.Optional(
      Type.String({
        description:
          'Completed reports only: a signed address, minted fresh by each GET, valid 5 minutes and for one download. No Authorization header is needed.',
      }),
    ),
    expires_at: Type.Optional(Instant('When this download_url expires.')),
    file_expires_at: Type.Optional(Instant('When the file is deleted (7 days after completion).')),
    row_count: Type.Optional(
      Type.Integer({ description: 'Data rows in the file (the registry counts its totals rows).' }),
    ),
    error: Type.Optional(
      Type.Object({
        code: Type.String({ description: '`generation_failed`.' }),
        message: Type.String(),
      }),
    ),
  }),
);

export const DownloadQuery = Type.Object(
  {
    // Both are checked by the service: a missing or malformed value is a tampered address (403), not a 422.
    expires: Type.Optional(
      Type.String({ maxLength: 20, description: 'Unix time (seconds) at which the address expires.' }),
    ),
    signature: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
