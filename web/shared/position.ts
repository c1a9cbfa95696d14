/**
 * The device's position at the punch (issue 40, docs/privacy.md), shared by the portal and the kiosk: asked once,
 * when the punch is made; `"declined"` when the person or the device says no.
 */
export type PunchPosition = 'declined' | { latitude: number; longitude: number; accuracy_m: number };

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
