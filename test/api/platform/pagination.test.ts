import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CursorCodec } from '../../../src/platform/pagination.ts';
import { useCompanyContext } from '../../helpers/context.ts';

const env = useCompanyContext();

async function addLocation(companyId: string, name: string): Promise<string> {
  const response = await env.ctx.admin.post(`/admin/v1/companies/${companyId}/locations`, { name });
  expect(response.statusCode).toBe(201);
  return response.json().id;
}

async function pageAll(url: string, limit: number, between?: () => Promise<void>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query: Record<string, string | number> = { limit };
    if (cursor) query.cursor = cursor;
    const response = await env.company.live.get(url, { query });
    expect(response.statusCode).toBe(200);
    const body = response.json() as {
      data: Array<{ id: string }>;
      meta: { next_cursor: string | null; has_more: boolean };
    };
    expect(body.data.length).toBeLessThanOrEqual(limit);
    expect(body.meta.has_more).toBe(body.meta.next_cursor !== null);
    ids.push(...body.data.map((row) => row.id));
    cursor = body.meta.next_cursor;
    if (between) await between();
  } while (cursor);
  return ids;
}

describe('keyset pagination', () => {
  it('pages through every row once, in a stable order, with the default and explicit limits', async () => {
    const created: string[] = [];
    for (let i = 0; i < 7; i++) {
      created.push(await addLocation(env.company.id, `Site ${i}`));
      env.ctx.clock.advance(1);
    }
    expect(await pageAll('/v1/locations', 3)).toEqual(created);
    const whole = (await env.company.live.get('/v1/locations')).json();
    expect(whole.data).toHaveLength(7);
    expect(whole.meta).toEqual({ next_cursor: null, has_more: false });
  });

  it('never duplicates or skips existing rows when rows are inserted while paging', async () => {
    const other = await env.ctx.createCompany();
    const api = other.live;
    const existing: string[] = [];
    for (let i = 0; i < 10; i++) existing.push(await addLocation(other.id, `Existing ${i}`));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await api.get('/v1/locations', {
        query: cursor ? { limit: 3, cursor } : { limit: 3 },
      });
      const body = response.json();
      seen.push(...body.data.map((row: { id: string }) => row.id));
      cursor = body.meta.next_cursor;
      await addLocation(other.id, 'Inserted while paging');
    } while (cursor);
    const seenExisting = seen.filter((id) => existing.includes(id));
    expect(seenExisting).toEqual(existing);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('filters by updated_since (strictly after)', async () => {
    const other = await env.ctx.createCompany();
    await addLocation(other.id, 'Old');
    env.ctx.clock.advance(10);
    const since = new Date(env.ctx.clock.now().epochMilliseconds).toISOString();
    env.ctx.clock.advance(1);
    const fresh = await addLocation(other.id, 'New');
    const response = await other.live.get('/v1/locations', { query: { updated_since: since } });
    expect(response.json().data.map((row: { id: string }) => row.id)).toEqual([fresh]);
  });

  it('rejects a tampered, foreign or garbage cursor with 422 on query.cursor', async () => {
    await addLocation(env.company.id, 'Another');
    const first = (await env.company.live.get('/v1/locations', { query: { limit: 1 } })).json();
    const cursor: string = first.meta.next_cursor;
    const [payload, signature] = cursor.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString());
    decoded.k[1] = '00000000-0000-7000-8000-000000000000';
    const forged = `${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${signature}`;
    const unitsCursor = cursor; // a locations cursor replayed on units
    for (const [url, bad] of [
      ['/v1/locations', forged],
      ['/v1/locations', `${cursor}x`],
      ['/v1/locations', 'garbage'],
      ['/v1/units', unitsCursor],
    ] as const) {
      const response = await env.company.live.get(url, { query: { cursor: bad } });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({ 'query.cursor': ['is not a valid cursor for this listing'] });
    }
  });
});

describe('CursorCodec', () => {
  const codec = new CursorCodec(Buffer.alloc(32, 7));

  it('round-trips any key and rejects any single-character change', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 40 }), fc.integer()), { minLength: 1, maxLength: 3 }),
        fc.nat(),
        (key, position) => {
          const cursor = codec.encode('listing', key);
          expect(codec.decode('listing', cursor, key.length)).toEqual(key);
          const index = position % cursor.length;
          const replacement = cursor[index] === 'A' ? 'B' : 'A';
          const tampered = cursor.slice(0, index) + replacement + cursor.slice(index + 1);
          expect(() => codec.decode('listing', tampered, key.length)).toThrow();
        },
      ),
    );
  });

  it('binds a cursor to its listing', () => {
    const cursor = codec.encode('a', [1]);
    expect(() => codec.decode('b', cursor, 1)).toThrow();
  });
});
