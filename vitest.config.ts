import { defineConfig } from 'vitest/config';

// Two projects: unit tests are pure Node and fast; e2e tests start the real Worker under
// `wrangler dev` with a real Chromium, so they run one file at a time.
export default defineConfig({
  test: {
    // The in-page script the browser side sends is bundled first (wrangler does the same for the e2e Worker).
    globalSetup: ['scripts/build-page-script.mjs'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // pdf.js (unpdf) expects Node 22 built-ins; Node 20 gets stand-ins first.
          setupFiles: ['test/unit/support/node22-stand-ins.ts'],
          // Unit tests assert results, not speed: vitest's default 5 s was passed by slicing a large
          // reply, a rule-set comparison and a property test with the machine slowed to a third.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
