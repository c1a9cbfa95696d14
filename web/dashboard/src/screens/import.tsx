import { type FormEvent, useId, useState } from 'react';
import { api, fieldLabel, fieldSentence, localMessage } from '../../../shared/api.ts';
import { useT } from '../../../shared/i18n.ts';
import { ErrorMessage, Field, Table, useAction } from '../ui.tsx';

type ImportRow = {
  line: number;
  name: string;
  email: string | null;
  errors: Record<string, string[]>;
  employee_id: string | null;
  invitation: { emailed: boolean; url?: string } | null;
};
type ImportResult = {
  committed: boolean;
  rows: ImportRow[];
  ignored_columns: string[];
  rows_with_errors: number;
};

/** The file's bytes in base64, as the import takes them. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

/** A row's errors as sentences in the reader's language, the service's messages translated (empty: none). */
const errorsText = (errors: Record<string, string[]>) =>
  Object.entries(errors)
    .map(([field, messages]) => fieldSentence(fieldLabel(field), messages.map(localMessage)))
    .join(' ');

/** The file to import, CSV or XLSX. */
function FileField({ error, onFile }: { error: unknown; onFile: (file: File | null) => void }) {
  const t = useT();
  return (
    <Field label={t('File (CSV or XLSX)')} name="content" error={error}>
      <input
        type="file"
        accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        required
        onChange={(event) => onFile(event.target.files?.[0] ?? null)}
      />
    </Field>
  );
}

/** What a preview found: all correct, or how many rows are wrong; and the columns it did not read. */
function PreviewSummary({ rows, bad, ignored }: { rows: number; bad: number; ignored: readonly string[] }) {
  const t = useT();
  return (
    <p role="status">
      {bad === 0
        ? t('{{count}} rows, all correct. Nothing is imported until you confirm.', { count: rows })
        : t(
            '{{bad}} of {{count}} rows have errors: fix them in the file and review it again. Nothing was imported.',
            { bad, count: rows },
          )}
      {ignored.length > 0 && ` ${t('Ignored columns: {{columns}}.', { columns: ignored.join(', ') })}`}
    </p>
  );
}

/**
 * A staff list imported from a CSV or XLSX file (issue 39): first a preview that marks each row's errors, then,
 * when every row is fine, the import of them all at once (and their invitations to the portal).
 */
export function ImportEmployees({ onImported }: { onImported: (count: number) => void }) {
  const t = useT();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [invite, setInvite] = useState(true);
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const [done, setDone] = useState<ImportResult | null>(null);
  const action = useAction();
  const send = async (commit: boolean) => {
    if (!file) return null;
    const format = file.name.toLowerCase().endsWith('.xlsx') ? 'xlsx' : 'csv';
    return await api<ImportResult>('POST', '/imports/employees', {
      format,
      content: await base64Of(file),
      commit,
      ...(commit ? { invite } : {}),
    });
  };
  const review = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    setPreview((await action.run(() => send(false))) ?? null);
  };
  const commit = async () => {
    const result = await action.run(() => send(true));
    if (result) {
      setPreview(null);
      setDone(result);
      onImported(result.rows.length);
    }
  };
  return (
    <section className="card" aria-labelledby={`${fileId}-title`}>
      <h2 id={`${fileId}-title`}>{t('Import employees')}</h2>
      <p className="muted">
        {t(
          'A CSV or XLSX file with a header row: First name, Last name, Email (required), and any of Hire date, External id, National id, Social security number, Work centre, Unit, Vacation days, Contract type, Weekly hours. Spanish headers work too.',
        )}
      </p>
      <form onSubmit={review} aria-label={t('Import employees')}>
        <FileField
          error={action.error}
          onFile={(chosen) => {
            setFile(chosen);
            setPreview(null);
            setDone(null);
          }}
        />
        <div className="row">
          <label className="check">
            <input type="checkbox" checked={invite} onChange={(event) => setInvite(event.target.checked)} />
            {t('Invite them to the workers’ portal')}
          </label>
          <button type="submit" className="secondary" disabled={action.busy || !file}>
            {t('Review the file')}
          </button>
        </div>
      </form>
      <ErrorMessage error={action.error} />
      {preview && (
        <>
          <PreviewSummary
            rows={preview.rows.length}
            bad={preview.rows_with_errors}
            ignored={preview.ignored_columns}
          />
          <Table
            label={t('Rows of the file')}
            columns={[t('Line'), t('Name'), t('Email'), t('Errors')]}
            empty={t('No row.')}
            rows={preview.rows.map((row) => (
              <tr key={row.line} className={Object.keys(row.errors).length > 0 ? 'row-error' : undefined}>
                <td>{row.line}</td>
                <td>{row.name}</td>
                <td>{row.email ?? '—'}</td>
                <td>{errorsText(row.errors) || t('correct')}</td>
              </tr>
            ))}
          />
          {preview.rows_with_errors === 0 && (
            <button type="button" disabled={action.busy} onClick={() => void commit()}>
              {t('Import {{count}} employees', { count: preview.rows.length })}
            </button>
          )}
        </>
      )}
      {done && (
        <div role="status">
          <p>{t('Imported {{count}} employees.', { count: done.rows.length })}</p>
          {done.rows.some((row) => row.invitation?.url) && (
            <>
              <p>{t('No e-mail is configured: hand each worker their invitation link.')}</p>
              <ul>
                {done.rows
                  .filter((row) => row.invitation?.url)
                  .map((row) => (
                    <li key={row.line}>
                      {row.name}: <code>{row.invitation?.url}</code>
                    </li>
                  ))}
              </ul>
            </>
          )}
        </div>
      )}
    </section>
  );
}

type ShiftImportRow = { line: number; name: string; shifts: number; errors: Record<string, string[]> };
type ShiftImportResult = {
  committed: boolean;
  rows: ShiftImportRow[];
  rows_with_errors: number;
  shifts: number;
};

/**
 * A week plan imported from a CSV or XLSX file (issue 39): a row per employee and week (its Monday), a column per
 * day with a span (`08:00-16:00`, a break in minutes after it) or a template's name. Previewed first, each wrong
 * cell named; then placed as drafts, all at once, for the planner to publish.
 */
export function ImportShifts({ onImported }: { onImported: (count: number) => void }) {
  const t = useT();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ShiftImportResult | null>(null);
  const action = useAction();
  const send = async (commit: boolean) => {
    if (!file) return null;
    const format = file.name.toLowerCase().endsWith('.xlsx') ? 'xlsx' : 'csv';
    return await api<ShiftImportResult>('POST', '/imports/shifts', {
      format,
      content: await base64Of(file),
      commit,
    });
  };
  const review = async (event: FormEvent) => {
    event.preventDefault();
    setPreview((await action.run(() => send(false))) ?? null);
  };
  const commit = async () => {
    const result = await action.run(() => send(true));
    if (result) {
      setPreview(null);
      onImported(result.shifts);
    }
  };
  return (
    <section className="card" aria-labelledby={`${fileId}-title`}>
      <h2 id={`${fileId}-title`}>{t('Import a week plan')}</h2>
      <p className="muted">
        {t(
          'A CSV or XLSX file: Employee (e-mail or external id), Week (its Monday), then Monday to Sunday, each with 08:00-16:00 (a break in minutes after it), a template’s name, or nothing. Spanish headers work too. The shifts are drafts until you publish the week.',
        )}
      </p>
      <form onSubmit={review} aria-label={t('Import a week plan')}>
        <FileField
          error={action.error}
          onFile={(chosen) => {
            setFile(chosen);
            setPreview(null);
          }}
        />
        <button type="submit" className="secondary" disabled={action.busy || !file}>
          {t('Review the file')}
        </button>
      </form>
      <ErrorMessage error={action.error} />
      {preview && (
        <>
          <PreviewSummary rows={preview.rows.length} bad={preview.rows_with_errors} ignored={[]} />
          <Table
            label={t('Rows of the file')}
            columns={[t('Line'), t('Name'), t('Shifts'), t('Errors')]}
            empty={t('No row.')}
            rows={preview.rows.map((row) => (
              <tr key={row.line} className={Object.keys(row.errors).length > 0 ? 'row-error' : undefined}>
                <td>{row.line}</td>
                <td>{row.name}</td>
                <td>{row.shifts}</td>
                <td>{errorsText(row.errors) || t('correct')}</td>
              </tr>
            ))}
          />
          {preview.rows_with_errors === 0 && preview.shifts > 0 && (
            <button type="button" disabled={action.busy} onClick={() => void commit()}>
              {t('Place {{count}} draft shifts', { count: preview.shifts })}
            </button>
          )}
        </>
      )}
    </section>
  );
}
