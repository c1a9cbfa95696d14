/**
 * The operations of the service per module and per surface, from the route table (issue 36): `node
 * scripts/operations.ts [--by-file]`. The app is built without a database connection, as for the OpenAPI files;
 * every operation route() registered is listed with the file that declared it.
 */
import { declaredOperations } from '../src/platform/operation.ts';
import { buildOffline } from './offline-app.ts';

const surfaceOf = (url: string) =>
  url.startsWith('/v1')
    ? '/v1'
    : url.startsWith('/admin/v1')
      ? '/admin/v1'
      : url.startsWith('/dashboard/api')
        ? '/dashboard/api'
        : url.startsWith('/portal/api')
          ? '/portal/api'
          : url.startsWith('/registry-access')
            ? '/registry-access'
            : url.split('/').slice(0, 2).join('/');

/** Rows of (declaring file or module, surface, count). */
export async function operationTable(byFile: boolean) {
  const { close } = await buildOffline();
  const counts = new Map<string, Map<string, number>>();
  for (const operation of declaredOperations.values()) {
    const owner = byFile
      ? operation.file
      : (/^modules\/([^/]+)\//.exec(operation.file)?.[1] ?? `(outside modules) ${operation.file}`);
    const row = counts.get(owner) ?? new Map<string, number>();
    const surface = surfaceOf(operation.url);
    row.set(surface, (row.get(surface) ?? 0) + 1);
    counts.set(owner, row);
  }
  await close();
  return counts;
}

if (import.meta.main) {
  const counts = await operationTable(process.argv.includes('--by-file'));
  const surfaces = ['/v1', '/admin/v1', '/dashboard/api', '/portal/api', '/registry-access'];
  const lines = [
    `| | ${surfaces.join(' | ')} | total |`,
    `|---|${surfaces.map(() => '---:').join('|')}|---:|`,
  ];
  let total = 0;
  for (const [owner, row] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    const sum = [...row.values()].reduce((a, b) => a + b, 0);
    total += sum;
    lines.push(`| ${owner} | ${surfaces.map((surface) => row.get(surface) ?? '').join(' | ')} | ${sum} |`);
  }
  lines.push(`| **all** | ${surfaces.map(() => '').join(' | ')} | ${total} |`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
