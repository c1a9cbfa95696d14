import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach } from 'vitest';

/**
 * When a test of the file fails, what the browser showed then: a full-page screenshot
 * (`FAILED-<test name>.png` in `dir`) and the text of every alert and status on the page, printed with the
 * failure. A timeout alone ("waiting for …") does not say whether the click missed or the server refused.
 */
export function keepFailures(page: () => Page | undefined, dir: string): void {
  afterEach(async ({ task }) => {
    const shown = page();
    if (task.result?.state !== 'fail' || !shown || shown.isClosed()) return;
    const name = `FAILED-${task.fullName.replace(/[^\w-]+/g, '_').slice(0, 150)}.png`;
    await shown.screenshot({ path: path.join(dir, name), fullPage: true }).catch(() => undefined);
    const messages = await shown
      .locator('[role="alert"], [role="status"]')
      .allTextContents()
      .catch(() => []);
    console.error(
      `${task.fullName}: the page at ${shown.url()} showed ${JSON.stringify(messages)}; see ${name}`,
    );
  });
}
