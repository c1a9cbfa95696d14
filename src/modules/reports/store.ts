import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ReportStore } from '../../platform/ports.ts';
import { type S3StoreConfig, s3Store } from './s3-store.ts';

export type { ReportStore } from '../../platform/ports.ts';

import { pipeline } from 'node:stream/promises';

const KEY = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/** Where report files live (JORNADA_REPORTS_STORE): plain data, so that a report process can be handed it. */
export type ReportStoreConfig = { kind: 'file'; dir: string } | ({ kind: 's3' } & S3StoreConfig);

/**
 * The store the service writes and reads report files through, built the same way by the service (deps.ts) and by
 * its report processes (src/jobs/report-process.ts): another implementation of `ReportStore` goes here, once.
 */
export function reportStore(config: ReportStoreConfig): ReportStore {
  return config.kind === 'file' ? fileStore(config.dir) : s3Store(config);
}

/** The default store: files under a directory (the data dir's `reports/`). */
export function fileStore(root: string): ReportStore {
  const pathOf = (key: string) => {
    if (!KEY.test(key) || key.includes('..')) throw new Error(`invalid report storage key ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, content) {
      const target = pathOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      const partial = `${target}.partial`;
      try {
        await pipeline(content, createWriteStream(partial));
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return (await stat(target)).size;
    },
    async get(key) {
      const target = pathOf(key);
      try {
        await stat(target);
      } catch {
        return null;
      }
      return createReadStream(target);
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async sweep({ partialBefore, fileBefore }) {
      let removed = 0;
      let entries: string[];
      try {
        entries = await readdir(root, { recursive: true });
      } catch {
        return 0; // no report was ever written here
      }
      for (const entry of entries) {
        const file = path.join(root, entry);
        const info = await stat(file).catch(() => null);
        if (!info?.isFile()) continue;
        const before = entry.endsWith('.partial') ? partialBefore : fileBefore;
        if (info.mtime < before) {
          await rm(file, { force: true });
          removed += 1;
        }
      }
      return removed;
    },
  };
}
