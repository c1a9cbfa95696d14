/**
 * The position at the punch (issue 40, docs/privacy.md): asked of the device only when the worker punches, only
 * where their work centre asks for it, after the worker has read the notice; a worker who declines (or whose
 * device gives no position) punches with `"declined"`.
 */
export { currentPosition, type PunchPosition } from '../../shared/position.ts';

const noticeKey = (employeeId: string) => `jornada-location-notice:${employeeId}`;
export const noticeRead = (employeeId: string) => localStorage.getItem(noticeKey(employeeId)) !== null;
export const markNoticeRead = (employeeId: string) =>
  localStorage.setItem(noticeKey(employeeId), new Date().toISOString());
