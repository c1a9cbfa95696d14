import { useState } from 'react';
import { api, type Mode, type Page, query } from '../api.ts';
import type { Absence } from '../types.ts';
import { ConfirmButton, ErrorMessage, Field, Loading, Pager, Table, useAction, useLoad } from '../ui.tsx';
import { employeesById, fullName } from './names.ts';

export function AbsencesScreen({ mode }: { mode: Mode }) {
  const [cursor, setCursor] = useState<string | null>(null);
  const queue = useLoad(async () => {
    const page = await api<Page<Absence>>(
      'GET',
      `/${mode}/absences${query({ status: 'requested', limit: 50, cursor })}`,
    );
    const people = await employeesById(
      mode,
      page.data.map((absence) => absence.employee_id),
    );
    return { page, people };
  }, [mode, cursor]);
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const action = useAction();
  const [done, setDone] = useState('');

  const decide = (absence: Absence, decision: 'approve' | 'reject') =>
    void action.run(async () => {
      const reason = reasons[absence.id]?.trim();
      await api(
        'POST',
        `/${mode}/absences/${absence.id}/${decision}`,
        decision === 'reject' && reason ? { reason } : {},
      );
      setDone(
        `${decision === 'approve' ? 'Approved' : 'Rejected'}: ${absence.type.label}, ${absence.start_date}.`,
      );
      queue.reload();
    });

  return (
    <>
      <p>Requested absences waiting for a decision, oldest changes first.</p>
      {done && <p role="status">{done}</p>}
      <ErrorMessage error={queue.error ?? action.error} />
      <Loading loading={queue.loading} />
      <Table
        columns={['Employee', 'Type', 'From', 'To', 'Days', 'Note', 'Decision']}
        empty="Nothing to decide."
        rows={queue.data?.page.data.map((absence) => {
          const person = queue.data?.people.get(absence.employee_id);
          const who = person ? fullName(person) : absence.employee_id;
          return (
            <tr key={absence.id}>
              <td>{who}</td>
              <td>{absence.type.label}</td>
              <td>{absence.start_date}</td>
              <td>{absence.end_date}</td>
              <td>{absence.days_count}</td>
              <td>{absence.note ?? '—'}</td>
              <td>
                <div className="row">
                  <button type="button" disabled={action.busy} onClick={() => decide(absence, 'approve')}>
                    Approve {who}
                  </button>
                  <ConfirmButton
                    label={`Reject ${who}`}
                    title={`Reject the absence of ${who}?`}
                    confirmLabel="Reject"
                    disabled={action.busy}
                    onConfirm={() => decide(absence, 'reject')}
                  >
                    <Field label="Reason (optional, shown to the employee)">
                      <input
                        maxLength={1000}
                        value={reasons[absence.id] ?? ''}
                        onChange={(event) => setReasons({ ...reasons, [absence.id]: event.target.value })}
                      />
                    </Field>
                  </ConfirmButton>
                </div>
              </td>
            </tr>
          );
        })}
      />
      <Pager cursor={cursor} next={queue.data?.page.meta} onPage={setCursor} />
    </>
  );
}
