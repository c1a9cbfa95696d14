import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where generated report files live. The interface is small on purpose: an S3-compatible store implements the
 * same three operations (multipart upload from the stream, GetObject as a stream, DeleteObject).
 */
export type ReportStore = {
  /** Stores the stream's bytes under the key, atomically: a reader never sees a partial file. Returns the size. */
  put(key: string, content: Readable): Promise<number>;
  /** The stored bytes as a stream, or null when there is no such file. */
  get(key: string): Promise<Readable | null>;
  /** Deletes the file; a missing file is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Removes what no report can still use: partial files (of a generation killed mid-write) last written before
   * `partialBefore`, and any file last written before `fileBefore` (older than the retention of every report).
   * Returns how many files it removed.
   */
  sweep(options: { partialBefore: Date; fileBefore: Date }): Promise<number>;
};

const KEY = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

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
