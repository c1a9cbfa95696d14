/// <reference lib="dom" />
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let source: string | null = null;

type Violation = { id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> };

/**
 * Runs axe-core (the npm package's own script, evaluated in the page) on what the page shows now (or only within
 * the given selectors: our part of a page that also shows a library's), with the WCAG 2.x A and AA rules, and
 * returns the violations as readable lines (an empty list when there are none).
 */
export async function axeViolations(page: Page, within?: string[]): Promise<string[]> {
  source ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, not as a <script>: the page's Content-Security-Policy stays on.
  await page.evaluate(source);
  const violations = await page.evaluate(async (include) => {
    const axe = (
      window as unknown as {
        axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Violation[] }> };
      }
    ).axe;
    const result = await axe.run(include ? { include } : document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return result.violations;
  }, within);
  return violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`,
  );
}
