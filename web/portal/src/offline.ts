import {
  deviceTimeNow,
  newDeviceKeys,
  offlineStore,
  type QueuedPunch,
  signedPunch,
} from '../../shared/offline.ts';
import { type CheckInType, type Me, portalApi, type WorkMode } from './api.ts';
import type { PunchPosition } from './location.ts';

/**
 * The portal's punches without a connection (issue 40, decision 0030): at login the phone or browser registers a
 * key of its own for the worker (POST /portal/api/devices); a punch made offline is kept here, signed with it, with
 * the device's clock and the next sequence, shown as pending, and sent when the connection returns
 * (POST /portal/api/check-ins/batch). The worker's last `me` is kept too, so the app opens offline.
 */
const store = offlineStore('jornada-portal');
const ME = 'jornada-portal-me';

/** This device's key for the worker, registered once (a worker who logs in on it for the first time gets one). */
export async function ensureDevice(employeeId: string): Promise<void> {
  if (await store.load(employeeId)) return;
  const { keys, publicKey } = await newDeviceKeys();
  const registered = await portalApi<{ device_id: string }>('POST', '/devices', { public_key: publicKey });
  await store.save(employeeId, { device: registered.device_id, keys, sequence: 0 });
}

export const rememberMe = (me: Me) => localStorage.setItem(ME, JSON.stringify(me));
export const rememberedMe = (): Me | null => {
  const kept = localStorage.getItem(ME);
  return kept ? (JSON.parse(kept) as Me) : null;
};
export const forgetMe = () => localStorage.removeItem(ME);

/** The worker's punches waiting to be sent, oldest first. */
export async function pendingPunches(employeeId: string): Promise<QueuedPunch[]> {
  return (await store.queued())
    .filter(({ value }) => value.employee === employeeId)
    .map(({ value }) => value);
}

/** Keeps a punch made offline, signed by this device with the next sequence. */
export async function keepPunch(
  employeeId: string,
  type: CheckInType,
  workMode?: WorkMode,
  location?: PunchPosition,
): Promise<QueuedPunch> {
  const at = deviceTimeNow();
  const signed = await signedPunch(store, employeeId, async () => ({
    type,
    device_time: at,
    ...(workMode ? { work_mode: workMode } : {}),
    ...(location === undefined ? {} : { location }),
  }));
  const punch: QueuedPunch = { ...signed, type, at, employee: employeeId };
  await store.add(punch);
  return punch;
}

export type SentQueue = {
  recorded: number;
  refused: Array<{ at: string; type: string; code: string; detail: string }>;
};

/**
 * Sends the worker's queue; every punch answered leaves it. Null when nothing waits or the service is away. One
 * send at a time: the connection's return and the retry timer can both ask, and the second must not send the same
 * punches again (the service would refuse them as replays and the worker would be told of a refusal that is none).
 */
let sending: Promise<SentQueue | null> | null = null;
export function sendPending(employeeId: string): Promise<SentQueue | null> {
  sending ??= sendQueue(employeeId).finally(() => {
    sending = null;
  });
  return sending;
}

async function sendQueue(employeeId: string): Promise<SentQueue | null> {
  const device = await store.load(employeeId);
  const entries = (await store.queued()).filter(({ value }) => value.employee === employeeId);
  if (!device || entries.length === 0) return null;
  const answer = await portalApi<{
    results: Array<{ index: number; status: 'recorded' | 'refused'; code?: string; detail?: string }>;
  }>('POST', '/check-ins/batch', {
    device_id: device.device,
    punches: entries.map(({ value }) => ({ punch: value.punch, signature: value.signature })),
  });
  for (const entry of entries) await store.remove(entry.key);
  const refused = answer.results
    .filter((result) => result.status === 'refused')
    .map((result) => {
      const punch = entries[result.index]?.value;
      return {
        at: punch?.at ?? '',
        type: punch?.type ?? '',
        code: result.code ?? '',
        detail: result.detail ?? '',
      };
    });
  return { recorded: answer.results.length - refused.length, refused };
}
