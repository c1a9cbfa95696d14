import {
  cloneElement,
  type ReactElement,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { describe, fieldErrors, fieldSentence } from '../../shared/api.ts';
import { useT } from '../../shared/i18n.ts';

/**
 * Loads data for a screen, again whenever `deps` change or `reload` is called. A response that arrives after a
 * newer request started is dropped, so a slow answer never overwrites a fresh one.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [version, setVersion] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  const key = JSON.stringify(deps);
  // biome-ignore lint/correctness/useExhaustiveDependencies: key and version are what trigger a new load
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    latest.current().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [key, version]);
  const reload = useCallback(() => setVersion((value) => value + 1), []);
  return { ...state, reload };
}

/** Runs an action, keeping its error to show; `busy` disables the button meanwhile. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await action();
    } catch (caught) {
      setError(caught);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, clear: () => setError(null) };
}

export type Action = ReturnType<typeof useAction>;

/**
 * A button that runs `work` as `action` (its error shown where the action's errors are), disabled while the
 * action is busy, so that a second click cannot send the request again.
 */
export function RunButton({
  action,
  work,
  disabled = false,
  secondary = false,
  children,
}: {
  action: Action;
  work: () => Promise<unknown>;
  disabled?: boolean;
  secondary?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={secondary ? 'secondary' : undefined}
      disabled={action.busy || disabled}
      onClick={() => void action.run(work)}
    >
      {children}
    </button>
  );
}

export function ErrorMessage({ error }: { error: unknown }) {
  useT(); // re-rendered in the new language
  if (!error) return null;
  const [first, ...rest] = describe(error);
  return (
    <div className="error" role="alert">
      <strong>{first}</strong>
      {rest.length > 0 && (
        <ul>
          {rest.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * A labelled control: the label names the control alone (`for`/`id`), and the hint describes it. Given the API
 * field it edits (`name`) and the last action's error, the field shows its own messages and is marked invalid.
 */
export function Field({
  label,
  children,
  hint,
  name,
  error,
}: {
  label: string;
  children: ReactElement;
  hint?: string;
  name?: string;
  error?: unknown;
}) {
  const id = useId();
  const messages = name ? (fieldErrors(error)[name] ?? []) : [];
  const describedBy = [hint ? `${id}-hint` : null, messages.length > 0 ? `${id}-error` : null]
    .filter(Boolean)
    .join(' ');
  const control = cloneElement(children as ReactElement<Record<string, unknown>>, {
    id,
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    ...(messages.length > 0 ? { 'aria-invalid': true } : {}),
  });
  return (
    <div className={messages.length > 0 ? 'field invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {control}
      {hint && <small id={`${id}-hint`}>{hint}</small>}
      {messages.length > 0 && (
        <small id={`${id}-error`} className="field-error">
          {fieldSentence(label, messages)}
        </small>
      )}
    </div>
  );
}

/**
 * A box that scrolls sideways on a narrow screen: named for screen readers, and able to take the keyboard focus
 * so the arrow keys scroll it (WCAG 2.1.1).
 */
export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
    <section className="table-wrap" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}

/** Two required date fields, From and To (inclusive), for two API fields (default `from` and `to`). */
export function DateRange({
  from,
  to,
  onFrom,
  onTo,
  error,
  names = ['from', 'to'],
}: {
  from: string;
  to: string;
  onFrom: (value: string) => void;
  onTo: (value: string) => void;
  error?: unknown;
  names?: readonly [string, string];
}) {
  const t = useT();
  return (
    <>
      <Field label={t('From')} name={names[0]} error={error}>
        <input type="date" required value={from} onChange={(event) => onFrom(event.target.value)} />
      </Field>
      <Field label={t('To')} name={names[1]} error={error}>
        <input type="date" required value={to} onChange={(event) => onTo(event.target.value)} />
      </Field>
    </>
  );
}

/** The messages of a group of checkboxes (a fieldset) for one API field, e.g. `scopes`; nothing when none. */
export function GroupError({
  id,
  name,
  label,
  error,
}: {
  id: string;
  name: string;
  label: string;
  error: unknown;
}) {
  const messages = fieldErrors(error)[name] ?? [];
  return (
    <small id={id} className="field-error" hidden={messages.length === 0}>
      {messages.length > 0 ? fieldSentence(label, messages) : ''}
    </small>
  );
}

/** The month a calendar shows: clearing the field keeps the month it had (a calendar always shows one). */
export function CalendarMonth({
  label,
  month,
  onMonth,
}: {
  label: string;
  month: string;
  onMonth: (month: string) => void;
}) {
  return (
    <Field label={label}>
      <input
        type="month"
        required
        value={month}
        onChange={(event) => event.target.value && onMonth(event.target.value)}
      />
    </Field>
  );
}

/** A choice among named things (work centres, units) with a first option for none of them ("None", "All"). */
export function NamedSelect({
  value,
  onChange,
  items,
  none,
  ...rest
}: {
  value: string;
  onChange: (value: string) => void;
  items: ReadonlyArray<{ id: string; name: string }> | undefined;
  none: string;
}) {
  return (
    <select value={value} onChange={(event) => onChange(event.target.value)} {...rest}>
      <option value="">{none}</option>
      {items?.map((item) => (
        <option key={item.id} value={item.id}>
          {item.name}
        </option>
      ))}
    </select>
  );
}

/** A form's submit button, with "Saved." beside it once the last save went through. */
export function SaveRow({ label, busy, saved }: { label: string; busy: boolean; saved: boolean }) {
  const t = useT();
  return (
    <div className="row">
      <button type="submit" disabled={busy}>
        {label}
      </button>
      {saved && <span role="status">{t('Saved.')}</span>}
    </div>
  );
}

/** A secret that is shown once, with a copy button. */
export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  const t = useT();
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <section className="secret" aria-live="polite">
      <h3>{label}</h3>
      <p>{t('Copy it now: it is shown only once and cannot be retrieved later.')}</p>
      <code data-testid="secret">{secret}</code>
      <div className="row">
        <button type="button" onClick={copy}>
          {t('Copy')}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          {t('I have stored it')}
        </button>
        {copied === 'yes' && <span role="status">{t('Copied.')}</span>}
        {copied === 'failed' && (
          <span role="status">{t('Copying is blocked here; select the text and copy it.')}</span>
        )}
      </div>
    </section>
  );
}

/** A button that asks for confirmation in a modal dialog before it acts. */
export function ConfirmButton({
  label,
  title,
  children,
  confirmLabel,
  onConfirm,
  onOpen,
  danger = true,
  disabled = false,
}: {
  label: string;
  title: string;
  /** The dialog's content; a function gets whether the dialog is open (to load what it shows only then). */
  children: ReactNode | ((open: boolean) => ReactNode);
  confirmLabel: string;
  onConfirm: () => void;
  /** Told when the dialog opens (to start its form from the current values). */
  onOpen?: () => void;
  danger?: boolean;
  disabled?: boolean;
}) {
  const t = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={danger ? 'danger' : ''}
        disabled={disabled}
        onClick={() => {
          onOpen?.();
          setOpen(true);
          dialog.current?.showModal();
          // A destructive confirmation starts on Cancel, so Enter alone never destroys anything.
          if (danger) cancel.current?.focus();
        }}
      >
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} onClose={() => setOpen(false)}>
        <h3 id={titleId}>{title}</h3>
        <div>{typeof children === 'function' ? children(open) : children}</div>
        <div className="row">
          <button
            type="button"
            className={danger ? 'danger' : ''}
            onClick={() => {
              dialog.current?.close();
              onConfirm();
            }}
          >
            {confirmLabel}
          </button>
          <button ref={cancel} type="button" className="secondary" onClick={() => dialog.current?.close()}>
            {t('Cancel')}
          </button>
        </div>
      </dialog>
    </>
  );
}

export function Loading({ loading }: { loading: boolean }) {
  const t = useT();
  return loading ? (
    <p role="status" className="muted">
      {t('Loading…')}
    </p>
  ) : null;
}

/**
 * A data table: column headers (and a hidden "Actions" one), rows, and a message when there are none. At phone
 * width each row becomes a card, every value under its column's name (styles.css, `.stack`): each cell is given
 * its column's name as `data-label` once rendered. A table too wide even so scrolls inside its box, which can
 * then take the keyboard focus (arrow keys scroll it) and is named for screen readers by `label`.
 */
export function Table({
  columns,
  actions = false,
  rows,
  empty,
  live = false,
  label,
}: {
  columns: string[];
  actions?: boolean;
  rows: ReactNode[] | undefined;
  empty: string;
  live?: boolean;
  label?: string;
}) {
  const t = useT();
  const table = useRef<HTMLTableElement>(null);
  // Runs after every render: rows come and go, and a cell spanning columns (a detail row) keeps no label. The
  // rows and cells also get their roles written out: shown as cards (display: block), a browser would otherwise
  // drop the table's semantics for screen readers.
  useLayoutEffect(() => {
    for (const row of table.current?.tBodies[0]?.rows ?? []) {
      row.setAttribute('role', 'row');
      let column = 0;
      for (const cell of row.cells) {
        const name = cell.colSpan === 1 ? (columns[column] ?? '') : '';
        if (cell.dataset.label !== name) cell.dataset.label = name;
        cell.setAttribute('role', cell.tagName === 'TH' ? 'rowheader' : 'cell');
        column += cell.colSpan;
      }
    }
  });
  return (
    <>
      <ScrollBox label={label ?? t('Scrollable table')}>
        {/* biome-ignore lint/a11y/noRedundantRoles: kept when the table is shown as cards (display: block) */}
        <table ref={table} role="table" className="stack" aria-live={live ? 'polite' : undefined}>
          {/* biome-ignore lint/a11y/noRedundantRoles: as above */}
          <thead role="rowgroup">
            {/* biome-ignore lint/a11y/noRedundantRoles: as above */}
            <tr role="row">
              {columns.map((column) => (
                // biome-ignore lint/a11y/noRedundantRoles: as above
                <th scope="col" role="columnheader" key={column}>
                  {column}
                </th>
              ))}
              {actions && (
                // biome-ignore lint/a11y/noRedundantRoles: as above
                <th scope="col" role="columnheader">
                  <span className="visually-hidden">{t('Actions')}</span>
                </th>
              )}
            </tr>
          </thead>
          {/* biome-ignore lint/a11y/noRedundantRoles: as above */}
          <tbody role="rowgroup">{rows}</tbody>
        </table>
      </ScrollBox>
      {rows?.length === 0 && <p className="muted">{empty}</p>}
    </>
  );
}

/** Keyset paging: back to the first page, or on to the next one. */
export function Pager({
  cursor,
  next,
  onPage,
}: {
  cursor: string | null;
  next: { has_more: boolean; next_cursor: string | null } | undefined;
  onPage: (cursor: string | null) => void;
}) {
  const t = useT();
  return (
    <div className="row">
      {cursor && (
        <button type="button" className="secondary" onClick={() => onPage(null)}>
          {t('First page')}
        </button>
      )}
      {next?.has_more && (
        <button type="button" className="secondary" onClick={() => onPage(next.next_cursor)}>
          {t('Next page')}
        </button>
      )}
    </div>
  );
}

/** Which rows of a list are selected for a bulk decision (issue 39), by id. */
export function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  return {
    selected,
    size: selected.size,
    has: (id: string) => selected.has(id),
    toggle: (id: string, on: boolean) =>
      setSelected((previous) => {
        const next = new Set(previous);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    /** Keeps only the ids still listed (after a reload), or none. */
    keep: (ids: readonly string[] = []) =>
      setSelected((previous) => new Set(ids.filter((id) => previous.has(id)))),
  };
}

export type Selection = ReturnType<typeof useSelection>;

/** A row's box for the bulk decision, named after the row for a screen reader. */
export function SelectBox({ selection, id, label }: { selection: Selection; id: string; label: string }) {
  return (
    <label className="select-box">
      <input
        type="checkbox"
        checked={selection.has(id)}
        onChange={(event) => selection.toggle(id, event.target.checked)}
      />
      <span className="visually-hidden">{label}</span>
    </label>
  );
}

/**
 * Decides the selected items one by one, each through its own call, so that the server checks every one as if
 * it were decided alone; `one` answers null when done, or why it was left for a decision on its own. What
 * failed is said with the service's reason, and the rest still goes on.
 */
export async function eachInTurn<T>(
  items: readonly T[],
  one: (item: T) => Promise<string | null>,
  nameOf: (item: T) => string,
): Promise<{ done: number; left: string[] }> {
  let done = 0;
  const left: string[] = [];
  for (const item of items) {
    try {
      const why = await one(item);
      if (why === null) done += 1;
      else left.push(`${nameOf(item)}: ${why}`);
    } catch (error) {
      left.push(`${nameOf(item)}: ${describe(error).join(' ')}`);
    }
  }
  return { done, left };
}

/**
 * The bar of a bulk approval (issue 39): the button that approves the selected rows after a confirmation that
 * says how, and the rows left undecided with why. Shared by the team calendar and the corrections queue.
 */
export function BulkApproval({
  count,
  title,
  explanation,
  busy,
  left,
  onApprove,
}: {
  count: number;
  title: string;
  explanation: string;
  busy: boolean;
  left: readonly string[];
  onApprove: () => void;
}) {
  const t = useT();
  return (
    <>
      <div className="row bulk">
        <ConfirmButton
          label={t('Approve the selected ({{count}})', { count })}
          title={title}
          confirmLabel={t('Approve')}
          disabled={busy || count === 0}
          onConfirm={onApprove}
        >
          <p>{explanation}</p>
        </ConfirmButton>
      </div>
      {left.length > 0 && (
        <div role="alert" className="field-error">
          <p>{t('Not approved:')}</p>
          <ul>
            {left.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}
