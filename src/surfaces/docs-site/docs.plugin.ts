import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Marked } from 'marked';
import { ApiError, ERROR_CODES, type ErrorCode, problemBody } from '../../platform/errors.ts';
import {
  lazyStaticEntity,
  type StaticEntity,
  sendStaticEntity,
  staticEntity,
} from '../../platform/static-entity.ts';
import { codeSamples } from './code-samples.ts';
import { ERROR_PAGES, errorStatus, errorTitle } from './error-pages.ts';

/**
 * The developers' site, served by the service itself (docs/decisions/0013-developer-site.md): the API reference
 * at /docs (Redoc, rendering /v1/openapi.json), the getting-started guide, a page for every problem `type`, and
 * the changelog. Nothing is fetched from another host: Redoc's bundle comes from node_modules, the rest is ours.
 */
const require = createRequire(import.meta.url);
const ROOT = new URL('../../../', import.meta.url);

const SITE_HEADERS = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};
/** Our pages: nothing inline, nothing from elsewhere. */
const PAGE_CSP =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/**
 * The reference: Redoc writes its styles at run time (styled-components) and runs its search index in a worker
 * it starts from a blob; it fetches only the description, from this service.
 */
const REFERENCE_CSP =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const NAV: Array<[string, string]> = [
  ['/docs', 'API reference'],
  ['/docs/getting-started', 'Getting started'],
  ['/docs/guides', 'Guides'],
  ['/docs/errors', 'Errors'],
  ['/docs/changelog', 'Changelog'],
  ['/dashboard', 'Dashboard'],
];

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** One page of the site: the shared header and navigation around its content. */
function layout(title: string, current: string, body: string): string {
  const nav = NAV.map(
    ([href, name]) =>
      `<li><a href="${href}"${href === current ? ' aria-current="page"' : ''}>${escapeHtml(name)}</a></li>`,
  ).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Jornada API</title>
<link rel="stylesheet" href="/docs/assets/site.css">
</head>
<body>
<header class="site"><a class="brand" href="/docs">Jornada API</a><nav aria-label="Documentation"><ul>${nav}</ul></nav></header>
${body}
</body>
</html>
`;
}

const markdown = new Marked({ gfm: true });

/** A Markdown file of the repository as a page (our own text: trusted, rendered on the server). */
async function markdownPage(file: string, title: string, current: string): Promise<string> {
  const text = await readFile(new URL(file, ROOT), 'utf8');
  return layout(title, current, `<main class="prose">${await markdown.parse(text)}</main>`);
}

const sendHtml = (reply: FastifyReply, html: string, csp = PAGE_CSP) =>
  reply
    .headers({ ...SITE_HEADERS, 'content-security-policy': csp })
    .type('text/html; charset=utf-8')
    .send(html);

const HTML = 'text/html; charset=utf-8';

/** A page that is the same until the service restarts: compressed once, revalidated by its ETag (issue 41). */
const sendPage = async (
  request: FastifyRequest,
  reply: FastifyReply,
  page: () => Promise<StaticEntity>,
  csp = PAGE_CSP,
) => {
  reply.headers({ ...SITE_HEADERS, 'content-security-policy': csp });
  return sendStaticEntity(request, reply, await page(), SITE_HEADERS['cache-control']);
};

const isCode = (code: string): code is ErrorCode => (ERROR_CODES as string[]).includes(code);

/** An error code's page, as data: what the HTML page says, and the JSON answer to Accept: application/json. */
function errorEntry(code: ErrorCode, docsUrl: string) {
  const page = ERROR_PAGES[code];
  return {
    code,
    status: errorStatus(code),
    title: errorTitle(code),
    when: page.when,
    action: page.action,
    example: problemBody(page.example, docsUrl),
  };
}

function errorHtml(entry: ReturnType<typeof errorEntry>): string {
  const list = (items: string[]) =>
    `<ul>${items.map((item) => `<li>${markdown.parseInline(item, { async: false })}</li>`).join('')}</ul>`;
  const body = `<main class="prose">
<p class="crumbs"><a href="/docs/errors">Errors</a></p>
<h1><code>${entry.code}</code>: ${escapeHtml(entry.title)}</h1>
<p>HTTP status <strong>${entry.status}</strong>, as <code>application/problem+json</code>.</p>
<h2>When it happens</h2>
${list(entry.when)}
<h2>What to do</h2>
${list(entry.action)}
<h2>An example</h2>
<pre><code>${escapeHtml(JSON.stringify(entry.example, null, 2))}</code></pre>
<p>Program against <code>code</code>; show <code>detail</code> to a person; read <code>errors</code> for the fields at fault.
This page answers JSON too, to <code>Accept: application/json</code>.</p>
</main>`;
  return layout(`${entry.code} error`, '/docs/errors', body);
}

function errorIndexPage(): string {
  const rows = ERROR_CODES.map(
    (code) =>
      `<tr><td><a href="/docs/errors/${code}"><code>${code}</code></a></td><td>${errorStatus(code)}</td><td>${escapeHtml(errorTitle(code))}</td></tr>`,
  ).join('');
  return layout(
    'Errors',
    '/docs/errors',
    `<main class="prose"><h1>Errors</h1>
<p>Every error is RFC 9457 <code>application/problem+json</code> with a stable <code>code</code>; its <code>type</code> is the address of the code's page.</p>
<table><thead><tr><th scope="col">Code</th><th scope="col">Status</th><th scope="col">Title</th></tr></thead><tbody>${rows}</tbody></table></main>`,
  );
}

/**
 * A value made on first use and kept for the process (the site's files never change while it runs): nothing is
 * read at start-up, and nothing twice.
 */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | null = null;
  return () => {
    made ??= make();
    return made;
  };
}

/**
 * The guides (issue 41): pagination, idempotency, limits and webhooks, each a page of its own. Each is its
 * section of the getting-started guide (one text, so the two never say different things), under its own title.
 */
export const GUIDES: Record<string, { title: string; section: string }> = {
  pagination: { title: 'Pagination and sync', section: '3. Page through listings' },
  idempotency: { title: 'Idempotency', section: '4. Retry safely with an idempotency key' },
  limits: { title: 'Rate limits and quotas', section: '6. Stay within the limits' },
  webhooks: {
    title: 'Webhooks: signing, retries, replay and listen',
    section: '7. Receive webhooks, and verify them',
  },
};

/** A `## ` section of a Markdown text, up to the next one; an error names a section the guide lost. */
function markdownSection(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`getting-started.md has no section "${heading}"`);
  const next = text.indexOf('\n## ', start + 1);
  return text.slice(start + `\n## ${heading}\n`.length, next < 0 ? undefined : next);
}

async function guideTopicPage(topic: string): Promise<string> {
  const guide = GUIDES[topic] as { title: string; section: string };
  const text = await readFile(new URL('docs/api/getting-started.md', ROOT), 'utf8');
  const body = `<main class="prose"><p class="crumbs"><a href="/docs/guides">Guides</a></p>
<h1>${escapeHtml(guide.title)}</h1>
${await markdown.parse(markdownSection(text, guide.section))}</main>`;
  return layout(guide.title, '/docs/guides', body);
}

function guideIndexPage(): string {
  const items = Object.entries(GUIDES)
    .map(([topic, guide]) => `<li><a href="/docs/guides/${topic}">${escapeHtml(guide.title)}</a></li>`)
    .join('');
  return layout(
    'Guides',
    '/docs/guides',
    `<main class="prose"><h1>Guides</h1>
<p>How the API behaves across operations. New here? The <a href="/docs/getting-started">getting-started guide</a>
walks through all of it in order.</p><ul>${items}</ul></main>`,
  );
}

const guideIndex = lazyStaticEntity(HTML, () => guideIndexPage());
const guideTopics = Object.fromEntries(
  Object.keys(GUIDES).map((topic) => [topic, lazyStaticEntity(HTML, () => guideTopicPage(topic))]),
);

const guidePage = lazyStaticEntity(HTML, () =>
  markdownPage('docs/api/getting-started.md', 'Getting started', '/docs/getting-started'),
);
const changelogPage = lazyStaticEntity(HTML, () =>
  markdownPage('CHANGELOG.md', 'Changelog', '/docs/changelog'),
);
const errorIndex = lazyStaticEntity(HTML, () => errorIndexPage());

const REDOC_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';

/** The files the pages load: Redoc's bundle, our script that starts it, the site's style sheet. */
const siteAssets = once(async () => {
  // Redoc's sidebar shows its maker's logo from their CDN: the one address in the bundle the page would reach
  // outside this service. It points here instead, to an empty image (the "API docs by Redocly" credit stays).
  const redoc = (await readFile(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8')).replace(
    REDOC_LOGO,
    '/docs/assets/redoc-logo.svg',
  );
  if (redoc.includes(REDOC_LOGO)) throw new Error('Redoc bundle: the CDN logo is still referenced');
  const sources: Record<string, { type: string; body: Buffer | string }> = {
    'redoc.standalone.js': { type: 'text/javascript; charset=utf-8', body: redoc },
    'reference.js': {
      type: 'text/javascript; charset=utf-8',
      body: await readFile(new URL('./reference.js', import.meta.url)),
    },
    'site.css': {
      type: 'text/css; charset=utf-8',
      body: await readFile(new URL('./site.css', import.meta.url)),
    },
    'redoc-logo.svg': { type: 'image/svg+xml', body: EMPTY_SVG },
    // A curl command and an SDK call per operation, from the committed description (the one the service
    // serves: a test keeps the two equal).
    'code-samples.json': {
      type: 'application/json; charset=utf-8',
      body: JSON.stringify(codeSamples(JSON.parse(await readFile(new URL('openapi-v1.json', ROOT), 'utf8')))),
    },
  };
  // Compressed once (Redoc's bundle is about 1 MB; brotli makes it about a quarter of that).
  const assets: Record<string, StaticEntity> = {};
  for (const [name, source] of Object.entries(sources))
    assets[name] = await staticEntity(source.type, source.body);
  return assets;
});

/**
 * What a reader needs before the reference itself, written on the server so that it shows at once (issue 41: the
 * first heading came after Redoc had parsed its bundle and the description, 1.4–2.2 s): how to authenticate,
 * with a request to copy, and where the guide's pages on pagination, idempotency, limits and webhooks are.
 */
const AUTHENTICATION = `<section class="prose intro" aria-labelledby="reference-title">
<h1 id="reference-title">Jornada API reference</h1>
<p>The public REST API v1: employees, check-ins, absences, work summaries, the registry, reports and webhooks.
New here? Start with <a href="/docs/getting-started">Getting started</a>.</p>
<h2 id="authentication">Authentication</h2>
<p>Every request to <code>/v1</code> carries an API key as a bearer token. A company's administrator creates keys
in the dashboard (<em>Developers → API keys</em>); a key is shown once, when it is made.</p>
<pre><code>curl https://jornada.example.com/v1/employees \\
  -H "Authorization: Bearer $JORNADA_API_KEY"</code></pre>
<ul>
<li><code>jrn_live_…</code> keys act on the company's records; <code>jrn_test_…</code> keys on its sandbox, a copy
that nothing else sees.</li>
<li>A key holds scopes (listed on each operation below). Without a valid key the answer is
<a href="/docs/errors/unauthenticated">401 <code>unauthenticated</code></a>; with a key that lacks the operation's
scope, <a href="/docs/errors/invalid_scope">403 <code>invalid_scope</code></a>, naming the scope it needs.</li>
<li>Keys can expire and be revoked; a revoked key is refused within a second on every node.</li>
</ul>
<p>The guides explain <a href="/docs/guides/pagination">pagination</a>,
<a href="/docs/guides/idempotency">idempotency</a>, <a href="/docs/guides/limits">rate limits and quotas</a> and
<a href="/docs/guides/webhooks">webhooks</a> (signing, retries, replay and <code>jornada listen</code>); every
error has <a href="/docs/errors">its page</a>. Each operation below shows a curl command and the same call through
the TypeScript SDK.</p>
</section>`;

const REFERENCE_HTML = layout(
  'Reference',
  '/docs',
  `${AUTHENTICATION}
<main id="reference" aria-label="API reference"><p class="loading">Loading the reference…</p></main>
<script src="/docs/assets/redoc.standalone.js"></script>
<script src="/docs/assets/reference.js"></script>`,
);

const LANDING_HTML = layout(
  'Jornada',
  '',
  `<main class="prose"><h1>Jornada</h1>
<p>Workforce time and absence records for Spanish companies: the registry of record, payroll figures and a public API.</p>
<ul>
<li><a href="/dashboard">The company dashboard</a>, for HR administrators.</li>
<li><a href="/portal">The workers’ portal</a>, to clock in and see one’s own record.</li>
<li><a href="/docs">The API reference</a> and <a href="/docs/getting-started">how to start an integration</a>.</li>
</ul></main>`,
);

const landingPage = lazyStaticEntity(HTML, () => LANDING_HTML);
const referencePage = lazyStaticEntity(HTML, () => REFERENCE_HTML);

export async function docsPlugin(app: FastifyInstance, options: { docsUrl: string }): Promise<void> {
  const { docsUrl } = options;
  const hidden = { schema: { hide: true } };

  app.get('/', hidden, async (request, reply) => sendPage(request, reply, landingPage));
  app.get('/docs', hidden, async (request, reply) => sendPage(request, reply, referencePage, REFERENCE_CSP));
  app.get<{ Params: { name: string } }>('/docs/assets/:name', hidden, async (request, reply) => {
    const assets = await siteAssets();
    const asset = assets[request.params.name];
    if (!asset || !Object.hasOwn(assets, request.params.name))
      throw new ApiError('not_found', 'No such file.');
    reply.header('x-content-type-options', 'nosniff');
    return sendStaticEntity(request, reply, asset, 'public, max-age=3600');
  });
  app.get('/docs/getting-started', hidden, async (request, reply) => sendPage(request, reply, guidePage));
  app.get('/docs/guides', hidden, async (request, reply) => sendPage(request, reply, guideIndex));
  app.get<{ Params: { topic: string } }>('/docs/guides/:topic', hidden, async (request, reply) => {
    const page = Object.hasOwn(guideTopics, request.params.topic)
      ? guideTopics[request.params.topic]
      : undefined;
    if (!page) throw new ApiError('not_found', 'No such guide.');
    return sendPage(request, reply, page);
  });
  app.get('/docs/changelog', hidden, async (request, reply) => sendPage(request, reply, changelogPage));
  app.get('/docs/errors', hidden, async (request, reply) => sendPage(request, reply, errorIndex));
  app.get<{ Params: { code: string } }>('/docs/errors/:code', hidden, async (request, reply) => {
    const { code } = request.params;
    if (!isCode(code)) throw new ApiError('not_found', 'Unknown error code.');
    const entry = errorEntry(code, docsUrl);
    const accept = request.headers.accept ?? '';
    // JSON for a program that asks for it; the page for a browser (text/html) or anything else.
    if (/application\/(problem\+)?json/.test(accept) && !/text\/html/.test(accept)) {
      return reply.header('cache-control', 'no-cache').send(entry);
    }
    return sendHtml(reply, errorHtml(entry));
  });
}
