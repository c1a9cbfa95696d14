import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { type TSchema, Type } from 'typebox';
import { CalendarDate, COMPONENT_KEYWORD, named } from './common.schemas.ts';
import { invalid } from './errors.ts';
import { deriveKey, hmac, safeEqual } from './secrets.ts';

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

export const PageQuery = {
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_LIMIT,
      default: DEFAULT_LIMIT,
      description: 'Page size, 1 to 100.',
    }),
  ),
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1024, description: 'Opaque; resend meta.next_cursor unchanged.' }),
  ),
};

/** A page of a person's own days (the portal's lists): local dates from and to, inclusive. */
export const DateRangeQuery = Type.Object(
  {
    ...PageQuery,
    from: CalendarDate('First local date.'),
    to: CalendarDate('Last local date (inclusive), at most a year after from.'),
  },
  { additionalProperties: false },
);

export const UpdatedSinceQuery = {
  updated_since: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        'Only records with updated_at after this instant. To keep a copy, pass the largest updated_at seen so far: a listing ends before any change still being written, so none is skipped.',
    }),
  ),
};

/** Accepted and ignored on the aggregate listings; removal on 2027-08-27 (spec, Versioning). */
export const DeprecatedUpdatedSinceQuery = {
  updated_since: Type.Optional(
    Type.String({
      format: 'date-time',
      deprecated: true,
      description: 'Accepted and ignored (deprecated, removal on 2027-08-27). Re-query the range instead.',
    }),
  ),
};

export const SUNSET = 'Fri, 27 Aug 2027 00:00:00 GMT';
/** Announced 12 months before removal (spec, Versioning 4 and 5). */
const DEPRECATED_AT = Date.parse('2026-08-27T00:00:00Z') / 1000;

/**
 * The Deprecation (RFC 9745) and Sunset (RFC 8594) headers for a listing that accepts and ignores the
 * deprecated updated_since; sent when a client uses it.
 */
export function deprecatedUpdatedSinceHeaders(updatedSince: string | undefined): Record<string, string> {
  return updatedSince === undefined ? {} : { Deprecation: `@${DEPRECATED_AT}`, Sunset: SUNSET };
}

/** What every page says about the next one. */
export const PageMeta = named(
  'PageMeta',
  Type.Object({
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass it as `cursor` for the next page; null on the last page.',
    }),
    has_more: Type.Boolean(),
  }),
);

export function ListOf<T extends TSchema>(item: T) {
  const itemName = (item as Record<string, unknown>)[COMPONENT_KEYWORD];
  const list = Type.Object(
    {
      data: Type.Array(item, { maxItems: MAX_LIMIT }),
      meta: PageMeta,
    },
    { additionalProperties: false },
  );
  return typeof itemName === 'string' ? named(`${itemName}List`, list) : list;
}

export type Page<T> = { data: T[]; meta: { next_cursor: string | null; has_more: boolean } };

type KeyValue = string | number;

/** The key cursors are signed with, derived from the instance secret (the service, its report processes, the bench). */
export const cursorKey = (instanceSecret: Buffer): Buffer => deriveKey(instanceSecret, 'cursor');

/**
 * Cursors are `base64url(JSON{listing, key}).base64url(HMAC)`: opaque, tamper-evident, and bound to the
 * listing and its filters, so a cursor cannot be replayed against another query.
 */
export class CursorCodec {
  readonly #key: Buffer;
  constructor(key: Buffer) {
    this.#key = key;
  }

  #sign(payload: string): string {
    return hmac(this.#key, payload).subarray(0, 18).toString('base64url');
  }

  encode(listing: string, key: KeyValue[]): string {
    const payload = Buffer.from(JSON.stringify({ l: listing, k: key })).toString('base64url');
    return `${payload}.${this.#sign(payload)}`;
  }

  decode(listing: string, cursor: string, arity: number): KeyValue[] {
    const bad = () => invalid({ 'query.cursor': 'is not a valid cursor for this listing' });
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined) throw bad();
    if (!safeEqual(Buffer.from(signature), Buffer.from(this.#sign(payload)))) throw bad();
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw bad();
    }
    const { l, k } = (parsed ?? {}) as { l?: unknown; k?: unknown };
    if (l !== listing || !Array.isArray(k) || k.length !== arity) throw bad();
    if (!k.every((value) => typeof value === 'string' || typeof value === 'number')) throw bad();
    return k as KeyValue[];
  }
}

export type SortColumn = { column: string; kind: 'timestamp' | 'text' | 'integer' };

export type KeysetOptions<Row> = {
  codec: CursorCodec;
  /** Identifies the listing and every filter that shapes it. */
  listing: string;
  sort: SortColumn[];
  direction?: 'asc' | 'desc';
  limit: number;
  cursor?: string | undefined;
  keyOf: (row: Row) => KeyValue[];
  /**
   * A lower bound on the first sort column (updated_since, a timeline's from), applied to the first page only.
   * A cursor of this listing lies beyond it and bounds the scan by itself; with both, the planner may start the
   * index scan at the bound and walk every row up to the cursor (measured: 50,000 buffers for one deep page of
   * 10 million check-ins).
   */
  start?: RawBuilder<boolean> | undefined;
};

function toSqlValue(value: KeyValue, kind: SortColumn['kind']) {
  if (kind === 'timestamp') return sql`${new Date(Number(value))}::timestamptz`;
  if (kind === 'integer') return sql`${Number(value)}::bigint`;
  return sql`${String(value)}`;
}

/** Timestamps travel in cursors as epoch milliseconds (columns are timestamptz(3)). */
export function timestampKey(value: Date): number {
  return value.getTime();
}

/**
 * Keyset pagination: `WHERE (a, b) > (:a, :b) ORDER BY a, b LIMIT n + 1`. Served by an index whose trailing
 * columns are the sort columns; never OFFSET. A row inserted while a client pages cannot shift the rows that
 * existed before, because the position is a key, not a count.
 */
export async function keysetPage<DB, TB extends keyof DB, Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
  options: KeysetOptions<Row>,
): Promise<Page<Row>> {
  return pageOf(await keysetRows(query, options), options);
}

/** The rows of one keyset page, with the one past its end that tells whether there is more (see pageOf). */
async function keysetRows<DB, TB extends keyof DB, Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
  options: KeysetOptions<Row> & { before?: RawBuilder<boolean> | undefined },
): Promise<Row[]> {
  const direction = options.direction ?? 'asc';
  let q = query;
  if (options.start !== undefined && options.cursor === undefined) q = q.where(options.start);
  if (options.before !== undefined) q = q.where(options.before);
  if (options.cursor !== undefined) {
    const after = options.codec.decode(options.listing, options.cursor, options.sort.length);
    const columns = sql.join(options.sort.map((s) => sql.ref(s.column)));
    const values = sql.join(options.sort.map((s, index) => toSqlValue(after[index] as KeyValue, s.kind)));
    q = q.where(
      direction === 'asc'
        ? sql<boolean>`(${columns}) > (${values})`
        : sql<boolean>`(${columns}) < (${values})`,
    );
  }
  for (const s of options.sort) q = q.orderBy(sql.ref(s.column), direction);
  return await q.limit(options.limit + 1).execute();
}

/**
 * Cuts the rows of a keyset query run with `LIMIT limit + 1` into a page: the extra row only tells that there is
 * more, and the cursor is the key of the page's last row. For queries written in raw SQL.
 */
export function pageOf<Row>(
  rows: Row[],
  options: Pick<KeysetOptions<Row>, 'codec' | 'listing' | 'limit' | 'keyOf'>,
): Page<Row> {
  const hasMore = rows.length > options.limit;
  const data = hasMore ? rows.slice(0, options.limit) : rows;
  const last = data.at(-1);
  return {
    data,
    meta: {
      next_cursor:
        hasMore && last !== undefined ? options.codec.encode(options.listing, options.keyOf(last)) : null,
      has_more: hasMore,
    },
  };
}

export function mapPage<A, B>(page: Page<A>, map: (row: A) => B): Page<B> {
  return { data: page.data.map(map), meta: page.meta };
}

/** The name a sync listing's cursors are bound to: the listing, its filters and updated_since. */
export function syncListing(listing: string, updatedSince: string | undefined): string {
  return `${listing}|since=${updatedSince ?? ''}`;
}

/** The querystring of a sync listing: page size, cursor and updated_since, as the client sent them. */
export type SyncQuery = {
  limit?: number | undefined;
  cursor?: string | undefined;
  updated_since?: string | undefined;
};

export type SyncListOptions = {
  codec: CursorCodec;
  /** Names the listing and its filters; the cursor is bound to it. */
  listing: string;
  query: SyncQuery;
  /** Where the records a client may already sync past end (src/db/sync-stamp.ts). */
  horizon: SyncHorizonReader;
};

/** The sync horizon of a listing's companies (SyncHorizon.of in src/db/sync-stamp.ts), in epoch milliseconds. */
export type SyncHorizonReader = { readonly latest: number; read(): Promise<number> };
/** The process's sync horizons, per company: a listing reads those of the companies it shows. */
export type SyncHorizons = { of(companies: string | readonly string[]): SyncHorizonReader };

/**
 * The listing order shared by every syncable resource: (updated_at, id) ascending, so `updated_since` and the
 * cursor are served by one (company_id, updated_at, id) index, and a client that syncs sees each change after
 * the previous ones. The query must select `updated_at` and `id`.
 *
 * A page never reaches past the sync horizon (readWithinSyncHorizon): a record stamped at or after it may still
 * be joined by one stamped earlier whose transaction has not committed, and a client that moved past both would
 * never see that one.
 */
export async function syncPage<DB, TB extends keyof DB, Row extends { updated_at: Date; id: string }>(
  query: SelectQueryBuilder<DB, TB, Row>,
  options: SyncListOptions,
  prefix = '',
): Promise<Page<Row>> {
  const { limit, cursor, updated_since: updatedSince } = options.query;
  const keyset: KeysetOptions<Row> = {
    codec: options.codec,
    listing: syncListing(options.listing, updatedSince),
    sort: [
      { column: `${prefix}updated_at`, kind: 'timestamp' },
      { column: `${prefix}id`, kind: 'text' },
    ],
    limit: limit ?? DEFAULT_LIMIT,
    cursor,
    keyOf: (row) => [timestampKey(row.updated_at), row.id],
    start:
      updatedSince === undefined
        ? undefined
        : sql<boolean>`${sql.ref(`${prefix}updated_at`)} > ${new Date(updatedSince)}`,
  };
  const rows = await readWithinSyncHorizon<Row>(
    options.horizon,
    (row) => row.updated_at.getTime(),
    (horizon) =>
      keysetRows(
        query,
        horizon === undefined
          ? keyset
          : { ...keyset, before: sql<boolean>`${sql.ref(`${prefix}updated_at`)} < ${new Date(horizon)}` },
      ),
  );
  return pageOf(rows, keyset);
}

/**
 * Reads rows that a client follows by their sync stamps (a sync listing, the sandbox's event feed) so that none
 * lies at or past the sync horizon: first unbounded, which is enough when every row is stamped before the latest
 * horizon known (or there is none); otherwise the horizon is read again and so are the rows, bounded by it. A
 * read with nothing new costs one statement.
 */
export async function readWithinSyncHorizon<Row>(
  horizon: SyncHorizonReader,
  stampOf: (row: Row) => number,
  read: (horizon: number | undefined) => Promise<Row[]>,
): Promise<Row[]> {
  const known = horizon.latest;
  const rows = await read(undefined);
  if (rows.every((row) => stampOf(row) < known)) return rows;
  return await read(await horizon.read());
}

/**
 * One company's sync listing (syncPage: by `updated_at`, within its sync horizon), its rows mapped to their views.
 * `listing` names the listing and its filters, to which the cursors are bound.
 */
export async function companySyncList<
  DB,
  TB extends keyof DB,
  Row extends { updated_at: Date; id: string },
  View,
>(
  deps: { cursors: CursorCodec; syncHorizon: { of(companyIds: string): SyncHorizonReader } },
  companyId: string,
  select: SelectQueryBuilder<DB, TB, Row>,
  options: { listing: string; query: SyncQuery },
  toView: (row: Row) => View,
): Promise<Page<View>> {
  const page = await syncPage(select, {
    codec: deps.cursors,
    horizon: deps.syncHorizon.of(companyId),
    listing: options.listing,
    query: options.query,
  });
  return mapPage(page, toView);
}
