import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { PassThrough, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { createDb } from './database.ts';
import { knownMigrations, migrate } from './migrator.ts';

/**
 * `jornada backup FILE` and `jornada restore FILE` (issue 37, docs/operations.md "Backups"): a consistent copy
 * of every table without pg_dump or any other system binary, so that the embedded database and an external one
 * are backed up the same way, by the release that knows the schema.
 *
 * The file is gzip of lines:
 *   JORNADA-BACKUP 1
 *   TABLE <name> <columns as JSON>      then the table's rows in COPY's text format, one a line, then `\.`
 *   …
 *   MANIFEST <JSON>                     the schema version, each table's rows and SHA-256, the sequences, the
 *                                       report files the rows name, the webhook deliveries still due
 * COPY's text format escapes every backslash and newline inside a value, so no row is the line `\.`.
 *
 * A backup is one REPEATABLE READ, READ ONLY transaction: every table is read from one snapshot, so the copy
 * holds every transaction committed before it began and nothing of any later one, while writes go on.
 * A restore reads the file twice: first to check every table's count and checksum against the manifest (a
 * damaged or cut file changes nothing), then to load it into an empty database migrated to the backup's schema,
 * with triggers and foreign keys off for the load (`session_replication_role = replica`: the registry's guards
 * refuse rewrites, and the rows are already what they were). The release's later migrations run afterwards.
 */

const MAGIC = 'JORNADA-BACKUP 1';
const END = '\\.';

export type BackupManifest = {
  format: 1;
  created_at: string;
  /** The migrations applied to the database backed up, in order: the schema version. */
  schema: string[];
  tables: Array<{ name: string; columns: string[]; rows: number; sha256: string }>;
  sequences: Array<{ name: string; last_value: string | null; is_called: boolean }>;
  /** The files the report rows name: they live in the report store, not in this file. */
  report_files: string[];
  /** Webhook deliveries not yet delivered when the backup was taken. */
  deliveries_due: number;
};

export class BackupError extends Error {}

/** A session of its own for a backup or a restore: no statement timeout, since a large table takes a while. */
async function session(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, statement_timeout: 0 });
  await client.connect();
  return client;
}

/**
 * The data tables of the schema, each with its writable columns (generated ones are computed again on load), by
 * name: the load runs with foreign keys off, so no order between tables is needed.
 */
async function tablesOf(client: pg.Client): Promise<Array<{ name: string; columns: string[] }>> {
  const { rows } = await client.query<{ name: string; columns: string[] }>(`
    select c.relname as name,
           array_agg(a.attname::text order by a.attnum) as columns
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     where c.relkind in ('r', 'p') and not c.relispartition
     group by c.relname
     order by c.relname`);
  return rows;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Counts a COPY stream's lines and hashes its bytes on the way through. */
function measured(): Transform & { rows(): number; sha256(): string } {
  const hash = createHash('sha256');
  let rows = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) rows += 1;
      done(null, chunk);
    },
  });
  let digest: string | null = null;
  return Object.assign(stream, {
    rows: () => rows,
    sha256: () => {
      digest ??= hash.digest('hex');
      return digest;
    },
  });
}

/**
 * Writes a backup of the database at `url` to `file` (through a partial file renamed at the end, so a file of
 * that name is always whole). Returns its manifest.
 */
export async function backup(url: string, file: string, now: Date): Promise<BackupManifest> {
  const client = await session(url);
  const partial = `${file}.partial`;
  const gzip = createGzip();
  // The file holds every secret of the instance (keys' hashes, webhook secrets, the instance secret): owner only.
  const written = pipeline(gzip, createWriteStream(partial, { mode: 0o600 }));
  const write = async (chunk: string | Buffer) => {
    if (!gzip.write(chunk)) await once(gzip, 'drain');
  };
  try {
    await client.query('begin isolation level repeatable read, read only');
    const schema = (
      await client.query<{ version: string }>('select version from schema_migrations order by version')
    ).rows.map((row) => row.version);
    const tables = await tablesOf(client);
    await write(`${MAGIC}\n`);
    const manifestTables: BackupManifest['tables'] = [];
    for (const table of tables) {
      await write(`TABLE ${table.name} ${JSON.stringify(table.columns)}\n`);
      const columns = table.columns.map(quoted).join(', ');
      const meter = measured();
      const source = client.query(copyTo(`copy ${quoted(table.name)} (${columns}) to stdout`));
      source.on('error', (error) => meter.destroy(error));
      for await (const chunk of source.pipe(meter)) await write(chunk as Buffer);
      await write(`${END}\n`);
      manifestTables.push({ ...table, rows: meter.rows(), sha256: meter.sha256() });
    }
    const sequences = (
      await client.query<{ name: string; last_value: string | null; is_called: boolean }>(`
        select s.relname as name, q.last_value::text, q.last_value is not null as is_called
          from pg_class s join pg_namespace n on n.oid = s.relnamespace and n.nspname = current_schema()
          join pg_sequences q on q.schemaname = n.nspname and q.sequencename = s.relname
         where s.relkind = 'S' order by 1`)
    ).rows;
    const reportFiles = (
      await client.query<{ key: string }>(
        'select storage_key as key from reports where storage_key is not null order by 1',
      )
    ).rows.map((row) => row.key);
    const due = await client.query<{ n: number }>(
      "select count(*)::int as n from webhook_deliveries where status = 'pending'",
    );
    await client.query('commit');
    const manifest: BackupManifest = {
      format: 1,
      created_at: now.toISOString(),
      schema,
      tables: manifestTables,
      sequences,
      report_files: reportFiles,
      deliveries_due: due.rows[0]?.n ?? 0,
    };
    await write(`MANIFEST ${JSON.stringify(manifest)}\n`);
    gzip.end();
    await written;
    await rename(partial, file);
    return manifest;
  } catch (error) {
    gzip.destroy();
    await written.catch(() => {});
    await rm(partial, { force: true });
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

/** What a backup file holds, in order: each table's heading, then its rows, then its end; the manifest last. */
type BackupPart =
  | { kind: 'table'; name: string; columns: string[] }
  | { kind: 'row'; line: string }
  | { kind: 'end' }
  | { kind: 'manifest'; manifest: BackupManifest };

/**
 * Reads a backup file, decompressed, as its parts (the one reader of the format, for the check and the load).
 * A file that is not a backup, or cannot be read to its end, is a BackupError.
 */
async function* partsOf(file: string): AsyncGenerator<BackupPart> {
  const lines = createInterface({
    input: createReadStream(file).pipe(createGunzip()),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let first = true;
  let inTable = false;
  try {
    for await (const line of lines) {
      if (first) {
        if (line !== MAGIC) throw new BackupError(`${file} is not a Jornada backup`);
        first = false;
      } else if (inTable) {
        inTable = line !== END;
        yield inTable ? { kind: 'row', line } : { kind: 'end' };
      } else if (line.startsWith('TABLE ')) {
        const [, name = '', columns = '[]'] = line.match(/^TABLE (\S+) (.*)$/) ?? [];
        inTable = true;
        yield { kind: 'table', name, columns: JSON.parse(columns) as string[] };
      } else if (line.startsWith('MANIFEST ')) {
        yield { kind: 'manifest', manifest: JSON.parse(line.slice('MANIFEST '.length)) as BackupManifest };
      } else {
        throw new BackupError(`${file} has a line that is not part of a backup`);
      }
    }
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(
      `${file} cannot be read whole: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Reads a whole backup file and checks it against its manifest: the manifest, or BackupError. */
export async function verifyBackup(file: string): Promise<BackupManifest> {
  const found = new Map<string, { rows: number; sha256: string }>();
  let manifest: BackupManifest | null = null;
  let table: { name: string; rows: number; hash: ReturnType<typeof createHash> } | null = null;
  for await (const part of partsOf(file)) {
    if (part.kind === 'table') table = { name: part.name, rows: 0, hash: createHash('sha256') };
    else if (part.kind === 'row' && table !== null) {
      table.rows += 1;
      table.hash.update(`${part.line}\n`);
    } else if (part.kind === 'end' && table !== null) {
      found.set(table.name, { rows: table.rows, sha256: table.hash.digest('hex') });
      table = null;
    } else if (part.kind === 'manifest') manifest = part.manifest;
  }
  if (manifest === null || table !== null) throw new BackupError(`${file} is cut short: it has no manifest`);
  for (const expected of manifest.tables) {
    const actual = found.get(expected.name);
    if (actual?.rows !== expected.rows || actual.sha256 !== expected.sha256) {
      throw new BackupError(`${file} is damaged: table ${expected.name} does not match its manifest`);
    }
  }
  return manifest;
}

export type RestoreResult = { manifest: BackupManifest; rows: number; migrated: string[] };

/**
 * Restores a backup file into the empty database at `url`: checks the file, migrates the database to the
 * backup's schema, loads every table in one transaction, then migrates on to this release.
 */
export async function restore(url: string, file: string): Promise<RestoreResult> {
  const manifest = await verifyBackup(file);
  const known = new Set(await knownMigrations());
  const unknown = manifest.schema.filter((version) => !known.has(version));
  if (unknown.length > 0) {
    throw new BackupError(
      `the backup was taken by a newer release (migrations ${unknown.join(', ')} are unknown to this one): restore it with that release or a newer one`,
    );
  }
  const client = await session(url);
  const migrator = createDb(url, { max: 1 });
  const migrateThrough = async (through: string | undefined) =>
    (await migrate(migrator, through === undefined ? {} : { through })).applied;
  try {
    const existing = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p')`,
    );
    if ((existing.rows[0]?.n ?? 0) > 0) {
      throw new BackupError('the database is not empty: restore into a new, empty database');
    }
    const throughBackup = await migrateThrough(manifest.schema.at(-1));
    await client.query('begin');
    try {
      await client.query('set local session_replication_role = replica');
    } catch (error) {
      throw new BackupError(
        `restoring needs a role that may turn triggers off for the load (a superuser, or GRANT SET ON PARAMETER session_replication_role): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    // Rows that the migrations themselves insert are replaced by the backup's.
    const names = manifest.tables.map((table) => table.name).filter((name) => name !== 'schema_migrations');
    await client.query(`truncate ${names.map(quoted).join(', ')}`);
    let rows = 0;
    // The table being loaded: its COPY's input and the COPY itself (schema_migrations is the migrator's, skipped).
    let loading: { stream: PassThrough; done: Promise<void> } | null = null;
    for await (const part of partsOf(file)) {
      if (part.kind === 'table' && part.name !== 'schema_migrations') {
        const columns = part.columns.map(quoted).join(', ');
        const stream = new PassThrough();
        const target = client.query(copyFrom(`copy ${quoted(part.name)} (${columns}) from stdin`));
        loading = { stream, done: pipeline(stream, target) };
      } else if (part.kind === 'row' && loading !== null) {
        rows += 1;
        if (!loading.stream.write(`${part.line}\n`)) await once(loading.stream, 'drain');
      } else if (part.kind === 'end' && loading !== null) {
        loading.stream.end();
        await loading.done;
        loading = null;
      }
    }
    for (const sequence of manifest.sequences) {
      await client.query('select setval($1::regclass, $2::bigint, $3)', [
        quoted(sequence.name),
        sequence.last_value ?? '1',
        sequence.is_called,
      ]);
    }
    await client.query('commit');
    const after = await migrateThrough(undefined);
    return { manifest, rows, migrated: [...throughBackup, ...after] };
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end().catch(() => {});
    await migrator.destroy();
  }
}
