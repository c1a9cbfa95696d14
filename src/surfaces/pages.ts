import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where `npm run build` (Vite) writes the web apps' pages and assets (web/dist). */
export const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** The HTML shell: no framing, no third-party anything, never cached (it names the hashed asset files). */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** The Vite-built single-page app: its hashed assets (cached for a year) and the HTML shell at /dashboard. */
export async function registerDashboardPage(app: FastifyInstance): Promise<void> {
  const index = path.join(WEB_DIST, 'dashboard', 'index.html');
  if (existsSync(path.join(WEB_DIST, 'assets'))) {
    await app.register(fastifyStatic, {
      root: path.join(WEB_DIST, 'assets'),
      prefix: '/dashboard/assets/',
      index: false,
      immutable: true,
      maxAge: '365d',
    });
  }
  // The app's own routes (#/keys, #/webhooks…) live in the URL's fragment, so the shell is one address.
  app.get('/dashboard', { schema: { hide: true } }, pageOf(index, 'dashboard'));
}

/**
 * The workers' portal: a second page of the same Vite build (its assets are the dashboard's, under
 * /dashboard/assets/), at /portal and at the invitation link's address.
 */
export function registerPortalPage(app: FastifyInstance): void {
  const page = pageOf(path.join(WEB_DIST, 'portal', 'index.html'), 'portal');
  app.get('/portal', { schema: { hide: true } }, page);
  app.get('/portal/invitation', { schema: { hide: true } }, page);
}

/** The shared kiosk's page (issue 40): a fourth page of the same build; its API is /kiosk/api. */
export function registerKioskPage(app: FastifyInstance): void {
  app.get('/kiosk', { schema: { hide: true } }, pageOf(path.join(WEB_DIST, 'kiosk', 'index.html'), 'kiosk'));
}

/** The read-only registry view behind an access grant's link: a third page of the same build. */
export function registerAccessPage(app: FastifyInstance): void {
  app.get(
    '/registry-access/:token',
    { schema: { hide: true } },
    pageOf(path.join(WEB_DIST, 'access', 'index.html'), 'registry view'),
  );
}

function pageOf(file: string, name: string) {
  return async (_request: FastifyRequest, reply: FastifyReply) => {
    if (!existsSync(file)) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(`The ${name} is not built. Run \`npm run build\` (npm install does it too).\n`);
    }
    return reply
      .headers(PAGE_HEADERS)
      .type('text/html; charset=utf-8')
      .send(await readFile(file));
  };
}
