import type { components } from './schema.ts';

export type Problem = components['schemas']['Problem'];
/** The stable error codes of the API; a client programs against these, never against `title` or `detail`. */
export type ErrorCode = Problem['code'];

/** This SDK's version, sent in its User-Agent (a test keeps it equal to package.json's). */
export const SDK_VERSION = '1.0.0';

/** What `errors` holds for the codes that carry details; the others carry none that a client needs. */
export type ErrorDetails = {
  /** Each field path with its messages; `reason: payload_too_large` for a body over the limit (413). */
  validation_failed: { [field: string]: string[] | string | undefined; reason?: 'payload_too_large' };
  /** The scope the key lacks. */
  invalid_scope: { required_scope: string };
  /** When the month's quota starts again (an instant, UTC). */
  quota_exceeded: { resets_at: string };
  /** `method_not_allowed` (405) with the methods the path takes. */
  not_found: { reason?: 'method_not_allowed'; allowed?: string[] };
  /** Why a download address was refused (403). */
  unauthenticated: { reason?: 'download_invalid' | 'download_expired' | 'download_used' };
};
export type ErrorsOf<C extends ErrorCode> = C extends keyof ErrorDetails
  ? ErrorDetails[C]
  : Record<string, unknown>;

/**
 * What came with a successful answer, on every result as its non-enumerable `lastResponse` (as stripe-node's):
 * the request id to quote, the key's rate limit and the month's quota left, and whether an idempotent request was
 * answered from its first attempt.
 */
export type ResponseInfo = {
  status: number;
  requestId: string | null;
  headers: Headers;
  rateLimit: { limit: number; remaining: number; reset: number } | null;
  quotaRemaining: number | null;
  idempotentReplayed: boolean;
};
/** A result with its `lastResponse`. */
export type WithResponse<T> = T & { readonly lastResponse: ResponseInfo };

const numberHeader = (headers: Headers, name: string) => {
  const value = headers.get(name);
  return value === null || !/^\d+$/.test(value) ? null : Number(value);
};

export function responseInfo(response: Response): ResponseInfo {
  const { headers } = response;
  const limit = numberHeader(headers, 'x-ratelimit-limit');
  const remaining = numberHeader(headers, 'x-ratelimit-remaining');
  const reset = numberHeader(headers, 'x-ratelimit-reset');
  return {
    status: response.status,
    requestId: headers.get('x-request-id'),
    headers,
    rateLimit: limit !== null && remaining !== null && reset !== null ? { limit, remaining, reset } : null,
    quotaRemaining: numberHeader(headers, 'x-service-quota-remaining'),
    idempotentReplayed: headers.get('idempotent-replayed') === 'true',
  };
}

/** Puts the response's information on a result, out of its enumerable fields (JSON.stringify leaves it out). */
function withResponse<T>(result: T, response: Response): WithResponse<T> {
  if (typeof result === 'object' && result !== null) {
    Object.defineProperty(result, 'lastResponse', { value: responseInfo(response), enumerable: false });
  }
  return result as WithResponse<T>;
}

export type JornadaOptions = {
  /** A live (`jrn_live_…`) or test (`jrn_test_…`) key. */
  apiKey: string;
  /** Where the service answers, such as `https://jornada.example.com` (the paths start with `/v1`). */
  baseUrl: string;
  /** How many times a failed request may be sent again (default 3). */
  maxRetries?: number;
  /** The longest wait accepted from a `Retry-After` (default 60 s); a longer one is thrown instead of waited. */
  maxRetryDelayMs?: number;
  /** The limit of each attempt (default 60 s). */
  timeoutMs?: number;
  /** The `fetch` used for every request (default: the global one). */
  fetch?: typeof globalThis.fetch;
  /** How the client waits between attempts (default: a timer). Tests give one that moves a fake clock. */
  sleep?: (ms: number) => Promise<void>;
};

export type RequestOptions = {
  /** Cancels the request, including its waits between retries. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this request. */
  timeoutMs?: number;
  /** Overrides the client's `maxRetries` for this request. */
  maxRetries?: number;
};

export type IdempotentOptions = RequestOptions & {
  /** Sent as `Idempotency-Key`; by default a new UUID per call, kept across that call's retries. */
  idempotencyKey?: string;
};

/** A report's file: its bytes as a stream (pipe it to a file), its type and name. */
export type ReportFile = {
  stream: ReadableStream<Uint8Array>;
  contentType: string | null;
  fileName: string | null;
  lastResponse: ResponseInfo;
};

/** A listing's item type, from its page type. */
export type Item<PageType> = PageType extends { data: Array<infer T> } ? T : never;

type Page<T> = { data: T[]; meta: { next_cursor: string | null; has_more: boolean } };

type Call = {
  method: string;
  path: string;
  query?: object | undefined;
  body?: unknown;
  /** The operation takes an Idempotency-Key, so that sending it again changes nothing twice. */
  idempotent?: true;
  options?: IdempotentOptions | undefined;
};

/**
 * The service answered with a problem (RFC 9457). `code` is the stable code to program against; `is(code)` narrows
 * the error so that `errors` has that code's details:
 *
 * ```ts
 * if (error instanceof JornadaError && error.is('validation_failed')) console.log(error.errors.email);
 * ```
 */
export class JornadaError<C extends ErrorCode = ErrorCode> extends Error {
  readonly status: number;
  readonly code: C;
  readonly problem: Problem;
  /** The request's `X-Request-Id`, to quote to the service's operator. */
  readonly requestId: string | null;
  /** Seconds from `Retry-After`, when the answer carried one. */
  readonly retryAfter: number | null;

  constructor(problem: Problem, response: Response) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = 'JornadaError';
    this.status = problem.status;
    this.code = problem.code as C;
    this.problem = problem;
    this.requestId = response.headers.get('x-request-id');
    this.retryAfter = retryAfterSeconds(response);
  }

  /** The code's details (ErrorDetails): each field's messages for `validation_failed`, `required_scope`, … */
  get errors(): ErrorsOf<C> {
    return (this.problem.errors ?? {}) as ErrorsOf<C>;
  }

  /** Whether this is the given code, narrowing `errors` to its details. */
  is<K extends ErrorCode>(code: K): this is JornadaError<K> {
    return (this.code as ErrorCode) === code;
  }
}

/** No answer was received: the service could not be reached, the connection dropped, or the attempt timed out. */
export class JornadaConnectionError extends Error {
  readonly url: string;

  constructor(url: string, cause: unknown) {
    super(`cannot reach ${url}: ${cause instanceof Error ? (cause.cause ?? cause.message) : String(cause)}`, {
      cause,
    });
    this.name = 'JornadaConnectionError';
    this.url = url;
  }
}

/**
 * All the items of a listing, page after page (`for await (const item of listing)`), or its first page
 * (`await listing`). Each page is requested only when the previous one has been read.
 */
export class Listing<T> implements AsyncIterable<T>, PromiseLike<Page<T>> {
  readonly #fetchPage: (cursor: string | undefined) => Promise<Page<T>>;

  constructor(fetchPage: (cursor: string | undefined) => Promise<Page<T>>) {
    this.#fetchPage = fetchPage;
  }

  /** The first page, as the service answered it. */
  // biome-ignore lint/suspicious/noThenProperty: a listing is awaitable, giving its first page
  then<A = Page<T>, B = never>(
    onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#fetchPage(undefined).then(onFulfilled, onRejected);
  }

  /** Every page, following `meta.next_cursor` until `has_more` is false. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.#fetchPage(cursor);
      yield page;
      cursor = page.meta.has_more && page.meta.next_cursor !== null ? page.meta.next_cursor : undefined;
    } while (cursor !== undefined);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every item in one array: for listings known to be small. */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}

/** A path parameter, encoded as one segment. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

const nodeVersion = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
const runtime = nodeVersion ? `node/${nodeVersion}` : 'fetch';
const USER_AGENT = `jornada-sdk/${SDK_VERSION} ${runtime}`;

function retryAfterSeconds(response: Response): number | null {
  const header = response.headers.get('retry-after');
  if (header === null) return null;
  if (/^\d+$/.test(header.trim())) return Number(header);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** Exponential backoff with full jitter: up to 0.5 s, 1 s, 2 s, … capped at 8 s. */
function backoffMs(attempt: number): number {
  return Math.random() * Math.min(8_000, 500 * 2 ** attempt);
}

function timer(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function problemOf(response: Response): Promise<Problem> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as Partial<Problem>;
    if (typeof body.code === 'string') return body as Problem;
  } catch {
    // Not JSON: a proxy's or load balancer's page. Described below from the status alone.
  }
  return {
    type: 'about:blank',
    title: response.statusText || `HTTP ${response.status}`,
    status: response.status,
    code: response.status === 429 ? 'rate_limited' : 'internal_error',
    detail: text.slice(0, 200) || `HTTP ${response.status} with no problem body`,
    errors: {},
  };
}

/**
 * How every request is sent: the key, JSON, the Idempotency-Key, and retries.
 *
 * A request is sent again, at most `maxRetries` times:
 * - after 429 `rate_limited` (the service refused it before doing anything), waiting `Retry-After`;
 * - after 503, or when no answer came (a dropped connection, a timeout), only if sending it twice is safe: a GET,
 *   or an operation that takes an Idempotency-Key (one is generated per call and kept across its retries);
 * - after 409 `conflict` with `Retry-After`: the first attempt with this Idempotency-Key is still running.
 * `quota_exceeded` (the month's quota is spent) is never retried, nor any wait longer than `maxRetryDelayMs`.
 */
export class Transport {
  readonly #options: Required<Omit<JornadaOptions, 'fetch' | 'sleep'>> & {
    fetch: typeof globalThis.fetch;
    sleep: (ms: number) => Promise<void>;
  };

  constructor(options: JornadaOptions) {
    if (!options.apiKey) throw new TypeError('Jornada: apiKey is required');
    if (!options.baseUrl) throw new TypeError('Jornada: baseUrl is required');
    this.#options = {
      apiKey: options.apiKey,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      maxRetries: options.maxRetries ?? 3,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000,
      timeoutMs: options.timeoutMs ?? 60_000,
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      sleep: options.sleep ?? timer,
    };
  }

  /** An operation answered with JSON, with its `lastResponse`. */
  protected async json<T>(call: Call): Promise<WithResponse<T>> {
    const response = await this.raw(call);
    return withResponse((await response.json()) as T, response);
  }

  /** An operation answered with no content (204). */
  protected async send(call: Call): Promise<void> {
    await (await this.raw(call)).body?.cancel();
  }

  /** A listing: awaitable for its first page, iterable over all its items. */
  protected list<T>(call: Call): Listing<T> {
    return new Listing<T>((cursor) =>
      this.json<Page<T>>({ ...call, query: cursor === undefined ? call.query : { ...call.query, cursor } }),
    );
  }

  /**
   * A report's file as a stream: from the report itself (its `download_url`, which holds the single-use signature)
   * or from its id and the address's query.
   */
  protected async reportFile(
    report: string | { id: string; download_url?: string | undefined },
    query: { expires?: string; signature?: string } | undefined,
    options: RequestOptions | undefined,
  ): Promise<ReportFile> {
    let id = typeof report === 'string' ? report : report.id;
    let signed = query;
    if (typeof report !== 'string' && report.download_url) {
      const address = new URL(report.download_url);
      id = decodeURIComponent(address.pathname.split('/').at(-2) ?? id);
      signed = Object.fromEntries(address.searchParams);
    }
    if (!signed?.signature)
      throw new TypeError('Jornada: downloadReport needs a completed report (its download_url)');
    const response = await this.raw({
      method: 'GET',
      path: `/v1/reports/${segment(id)}/download`,
      query: signed,
      options: { ...options, maxRetries: 0 },
    });
    const disposition = response.headers.get('content-disposition') ?? '';
    return {
      stream: response.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }),
      contentType: response.headers.get('content-type'),
      fileName: /filename="([^"]+)"/.exec(disposition)?.[1] ?? null,
      lastResponse: responseInfo(response),
    };
  }

  /** The successful response itself (for downloads, whose body a caller may stream). */
  protected async raw(call: Call): Promise<Response> {
    const options = this.#options;
    const url = new URL(`${options.baseUrl}${call.path}`);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.apiKey}`,
      accept: 'application/json',
      // Browsers keep their own (a page may not set it); elsewhere the service's logs see who called.
      'user-agent': USER_AGENT,
    };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.idempotent) headers['idempotency-key'] = call.options?.idempotencyKey ?? crypto.randomUUID();
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    // Safe to send twice: the service changes nothing the second time.
    const repeatable = call.method === 'GET' || call.idempotent === true;
    const maxRetries = call.options?.maxRetries ?? options.maxRetries;
    const signal = call.options?.signal;
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      const timeout = AbortSignal.timeout(call.options?.timeoutMs ?? options.timeoutMs);
      let response: Response;
      try {
        response = await options.fetch(url, {
          method: call.method,
          headers,
          body,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (!repeatable || attempt >= maxRetries) throw new JornadaConnectionError(url.href, error);
        await this.#wait(backoffMs(attempt), signal);
        continue;
      }
      if (response.ok) return response;
      const error = new JornadaError(await problemOf(response), response);
      const retryable =
        (error.status === 429 && error.code === 'rate_limited') ||
        (repeatable && error.status === 503) ||
        (repeatable && error.code === 'conflict' && error.retryAfter !== null);
      if (!retryable || attempt >= maxRetries) throw error;
      const delay = error.retryAfter === null ? backoffMs(attempt) : error.retryAfter * 1000;
      if (delay > options.maxRetryDelayMs) throw error;
      await this.#wait(delay, signal);
    }
  }

  async #wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (!signal) return await this.#options.sleep(ms);
    signal.throwIfAborted();
    let onAbort = () => {};
    try {
      await Promise.race([
        this.#options.sleep(ms),
        new Promise<never>((_, reject) => {
          onAbort = () => reject(signal.reason);
          signal.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}
