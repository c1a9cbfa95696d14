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
  registerInstallable(app, 'portal', {
    name: 'Jornada · Mi registro',
    short_name: 'Mi registro',
    description: 'Fichar y consultar tu registro de jornada, también sin conexión.',
    orientation: 'portrait',
  });
}

/**
 * What makes the portal and the kiosk installable apps that open without a connection (issue 40, decision 0031):
 * the web app manifest, an icon, and the service worker that `npm run build` makes with Workbox
 * (scripts/build-service-workers.ts), which keeps the app's page and assets on the device. The worker lives at
 * /<app>/sw.js and controls /<app> (Service-Worker-Allowed), and is never cached by HTTP, so a new release's
 * worker is found at the next visit.
 */
function registerInstallable(
  app: FastifyInstance,
  name: 'portal' | 'kiosk',
  text: { name: string; short_name: string; description: string; orientation: 'portrait' | 'landscape' },
): void {
  const manifest = JSON.stringify({
    ...text,
    id: `/${name}`,
    start_url: `/${name}`,
    scope: `/${name}`,
    display: 'standalone',
    lang: 'es',
    background_color: '#ffffff',
    theme_color: '#1f3a5f',
    icons: [{ src: `/${name}/icon.svg`, sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
  });
  app.get(`/${name}/manifest.webmanifest`, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/manifest+json; charset=utf-8').header('cache-control', 'no-cache').send(manifest),
  );
  app.get(`/${name}/icon.svg`, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(ICON),
  );
  const worker = path.join(WEB_DIST, name, 'sw.js');
  app.get(`/${name}/sw.js`, { schema: { hide: true } }, async (_request, reply) => {
    if (!existsSync(worker)) return reply.code(404).type('text/plain; charset=utf-8').send('Not built.\n');
    return reply
      .type('text/javascript; charset=utf-8')
      .headers({ 'cache-control': 'no-cache', 'service-worker-allowed': `/${name}` })
      .send(await readFile(worker));
  });
}

/** The apps' icon: a clock face on the brand's blue (an SVG, which browsers install at any size). */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" rx="96" fill="#1f3a5f"/><circle cx="256" cy="256" r="160" fill="none" stroke="#fff" stroke-width="32"/><path d="M256 160v104l72 48" fill="none" stroke="#fff" stroke-width="32" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

/** The shared kiosk's page (issue 40): a fourth page of the same build; its API is /kiosk/api. */
export function registerKioskPage(app: FastifyInstance): void {
  app.get('/kiosk', { schema: { hide: true } }, pageOf(path.join(WEB_DIST, 'kiosk', 'index.html'), 'kiosk'));
  registerInstallable(app, 'kiosk', {
    name: 'Jornada · Fichaje',
    short_name: 'Fichaje',
    description: 'El punto de fichaje de un centro de trabajo.',
    orientation: 'landscape',
  });
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
