import { defineConfig } from 'vitest/config';

/**
 * The test suite in three tiers (issue 36; CONTRIBUTING.md says which to use when):
 * - `unit`: pure code (the time engine, property tests, writers, guards of the code's shape); no database.
 * - `api`: one app per file on a cloned, migrated database, driven with `app.inject`.
 * - `e2e`: real processes (`jornada serve`, the CLI), Chromium, OpenAPI linting, the SDK against a server.
 * `npm test` runs all three, as CI does; `npm run test:unit` and `npm run test:api` run one.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    // Two cores: more workers only queue behind each other (and the browser tests time out).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['test/api/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          // One module graph per worker, not per file (docs/performance.md, "The test suite's time"): each file
          // still builds its own app on its own database, and keeps no state in modules between files.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          // A browser or a served process on two loaded cores can take more than the default second to show what
          // a test waits for; a poll still ends as soon as its condition holds.
          expect: { poll: { timeout: 5_000 } },
        },
      },
    ],
  },
});
