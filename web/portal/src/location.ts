/**
 * The position at the punch (issue 40, docs/privacy.md): asked of the device only when the worker punches, only
 * where their work centre asks for it, after the worker has read the notice; a worker who declines (or whose
 * device gives no position) punches with `"declined"`.
 */
export type PunchPosition = 'declined' | { latitude: number; longitude: number; accuracy_m: number };

const noticeKey = (employeeId: string) => `jornada-location-notice:${employeeId}`;
export const noticeRead = (employeeId: string) => localStorage.getItem(noticeKey(employeeId)) !== null;
export const markNoticeRead = (employeeId: string) =>
  localStorage.setItem(noticeKey(employeeId), new Date().toISOString());

/** The device's position now, once; `declined` if the worker or the device says no within 15 seconds. */
export function currentPosition(): Promise<PunchPosition> {
  if (!('geolocation' in navigator)) return Promise.resolve('declined');
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (position) =>
        resolve({
          latitude: position.coords.latitude,
          longitude: position.coords.longitude,
          accuracy_m: Math.min(100_000, Math.round(position.coords.accuracy)),
        }),
      () => resolve('declined'),
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 0 },
    );
  });
}
