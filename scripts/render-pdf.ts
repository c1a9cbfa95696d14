/**
 * Renders one page (the first unless a third argument says which) of a PDF to a PNG in Chromium with pdf.js (pdfjs-dist), for the documentation:
 * `node scripts/render-pdf.ts <file.pdf> <out.png> [page]`. Nothing is fetched from the network: the page, pdf.js and
 * the PDF are served to the browser from this machine through request interception.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { launchChromium } from '../test/helpers/browser.ts';

const [input, output, pageNumber = '1'] = process.argv.slice(2);
if (!input || !output) throw new Error('usage: node scripts/render-pdf.ts <file.pdf> <out.png>');
const require = createRequire(import.meta.url);
const files: Record<string, { body: Buffer; type: string }> = {
  'http://render.local/pdf.mjs': {
    body: await readFile(require.resolve('pdfjs-dist/legacy/build/pdf.mjs')),
    type: 'text/javascript',
  },
  'http://render.local/pdf.worker.mjs': {
    body: await readFile(require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs')),
    type: 'text/javascript',
  },
  'http://render.local/document.pdf': { body: await readFile(input), type: 'application/pdf' },
  'http://render.local/': {
    body: Buffer.from(`<!doctype html><body style="margin:0;background:#fff"><canvas id="c"></canvas>
<script type="module">
import * as pdfjs from '/pdf.mjs';
pdfjs.GlobalWorkerOptions.workerSrc = '/pdf.worker.mjs';
const pdf = await pdfjs.getDocument('/document.pdf').promise;
const page = await pdf.getPage(${Number(pageNumber)});
const viewport = page.getViewport({ scale: 1.6 });
const canvas = document.getElementById('c');
canvas.width = viewport.width; canvas.height = viewport.height;
await page.render({ canvasContext: canvas.getContext('2d'), viewport }).promise;
document.body.dataset.done = '1';
</script></body>`),
    type: 'text/html',
  },
};
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 960, height: 1350 } });
  await page.route('**/*', (route) => {
    const file = files[route.request().url()];
    return file ? route.fulfill({ body: file.body, contentType: file.type }) : route.abort();
  });
  await page.goto('http://render.local/');
  await page.waitForSelector('body[data-done="1"]', { timeout: 30_000 });
  await page.locator('#c').screenshot({ path: output });
  console.log(`wrote ${output}`);
} finally {
  await browser.close();
}
