import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
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
  };
}
