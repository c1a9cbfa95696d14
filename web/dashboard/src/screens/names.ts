import { api, type Mode } from '../../../shared/api.ts';
import type { Employee } from '../types.ts';

export type { Employee };

export const fullName = (employee: Pick<Employee, 'first_name' | 'last_name'>) =>
  `${employee.first_name} ${employee.last_name}`;

/** The employees behind a list's employee_id values, one GET each (a page holds at most 100). */
export async function employeesById(mode: Mode, ids: string[]): Promise<Map<string, Employee>> {
  const unique = [...new Set(ids)];
  const found = await Promise.all(
    unique.map((id) => api<Employee>('GET', `/${mode}/employees/${id}`).catch(() => null)),
  );
  return new Map(found.flatMap((employee) => (employee ? [[employee.id, employee] as const] : [])));
}
