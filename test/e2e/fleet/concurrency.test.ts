// Eight requests at once in the shared browser, with no request filter (BLOCK_MEDIA "false"): under
// this load Chrome reports a page's commit before puppeteer hands over its response, and each page
// must still be recognized as answered (a regression of commit detection).
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';

const ctx = useWorker({ vars: { BLOCK_MEDIA: 'false', NAVIGATION_TIMEOUT_MS: '10000' } });

describe('concurrency', () => {
  it('answers 8 concurrent requests for a page with a late fetch, each with its own content', async () => {
    for (let round = 0; round < 2; round++) {
      const results = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url(`/bench/article?fetch_ms=300&n=${round}-${i}`), raw: true });
          return { status: response.status, finalUrl: response.headers.get('X-Final-Url'), body: await response.text(), i };
        }),
      );
      for (const result of results) {
        expect(result.status).toBe(200);
        expect(result.finalUrl).toContain(`n=${round}-${result.i}`);
        expect(result.body).toContain('late content');
      }
    }
  });
});
