import type { Readable } from 'node:stream';
import type { Executor } from '../db/database.ts';

/**
 * Ports: the shapes of what the platform's dependencies (AppDeps) carry, declared here so that the platform never
 * imports a module. The modules implement them (reports/store.ts, webhooks/target.ts).
 */

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

export type ResolvedAddress = { address: string; family: number };
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export type TargetPolicy = {
  /** JORNADA_WEBHOOKS_ALLOW_PRIVATE=1: any address, and plain http:// to the local host (development, tests). */
  allowPrivate: boolean;
  resolve: HostResolver;
  /**
   * JORNADA_WEBHOOKS_ALLOWED_PORTS (default 443): the ports a target may use, so that webhooks cannot scan a
   * host's other services. Not applied when private targets are allowed (development and tests).
   */
  allowedPorts?: readonly number[];
};

/**
 * The sealed documents of closed months (modules/month-documents): `flush` makes, under the worker's row lock that
 * the caller holds, every document of the worker still to make, from the records as they stand. A write that may
 * change a closed month (an applied correction, the worker's answer) calls it first, so each version's documents
 * show that version (docs/registry.md, "Sealed documents").
 */
export type SealedDocuments = {
  flush(tx: Executor, companyId: string, employeeId: string): Promise<void>;
};
