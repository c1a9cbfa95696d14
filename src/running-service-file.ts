import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where a running service says it listens: `<data dir>/service.json`, written once the API listens and removed
 * when it stops, so `jornada admin …` finds the service of a data dir without being told its port.
 */
export type ServiceRecord = { url: string; pid: number; started_at: string };

export const serviceRecordPath = (dataDir: string) => path.join(dataDir, 'service.json');

/** The URL a local client reaches a listener at: a wildcard address means this host. */
export function localUrl(address: { address: string; port: number; family: string }): string {
  const host =
    address.address === '0.0.0.0' || address.address === '::'
      ? '127.0.0.1'
      : address.family === 'IPv6'
        ? `[${address.address}]`
        : address.address;
  return `http://${host}:${address.port}`;
}

export async function writeServiceRecord(dataDir: string, record: ServiceRecord): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  await writeFile(serviceRecordPath(dataDir), `${JSON.stringify(record, null, 2)}\n`);
}

/** Removes the record if it is still this process's (another node may have started on the data dir since). */
export async function removeServiceRecord(dataDir: string, pid: number): Promise<void> {
  const record = await readServiceRecord(dataDir);
  if (record?.pid === pid) await rm(serviceRecordPath(dataDir), { force: true });
}

export async function readServiceRecord(dataDir: string): Promise<ServiceRecord | null> {
  try {
    const record = JSON.parse(await readFile(serviceRecordPath(dataDir), 'utf8')) as ServiceRecord;
    return typeof record.url === 'string' && typeof record.pid === 'number' ? record : null;
  } catch {
    return null;
  }
}
