/**
 * Regenerates openapi-v1.json (and admin-openapi-v1.json) from the route schemas: `npm run openapi`.
 * The app is built without a database connection; only the route declarations are read.
 */
import { writeFile } from 'node:fs/promises';
import { buildOffline } from './offline-app.ts';

export async function renderOpenApi(): Promise<{ public: string; admin: string }> {
  const { app, close } = await buildOffline();
  const render = async (url: string) => `${JSON.stringify((await app.inject({ url })).json(), null, 1)}\n`;
  const result = { public: await render('/v1/openapi.json'), admin: await render('/admin/v1/openapi.json') };
  await close();
  return result;
}

if (import.meta.main) {
  const documents = await renderOpenApi();
  await writeFile('openapi-v1.json', documents.public);
  await writeFile('admin-openapi-v1.json', documents.admin);
  process.stdout.write('wrote openapi-v1.json and admin-openapi-v1.json\n');
}
