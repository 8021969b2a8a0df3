// Per-token rate limiting through wrangler dev's emulation of the Rate Limiting binding
// (wrangler.toml: 300 requests per 60 s per token).
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';
import { TEST_TOKEN } from '../support/worker.js';

const OTHER_TOKEN = 'e2e-second-token-51d0';
const LIMIT = 300;
const ctx = useWorker({ vars: { API_TOKENS: `${TEST_TOKEN},${OTHER_TOKEN}` } });

/** Cheap requests (refused by validation after the limiter), sent 10 at a time until one is limited. */
async function hammerUntilLimited(token: string, max: number) {
  for (let sent = 0; sent < max; sent += 10) {
    const batch = await Promise.all(Array.from({ length: 10 }, () => ctx.worker.fetchPage({ url: 'not-a-url' }, { token })));
    const limited = batch.find((response) => response.status === 429);
    for (const response of batch) if (response !== limited) await response.body?.cancel();
    if (limited) return { limited, sent: sent + 10 };
  }
  return { limited: undefined, sent: max };
}

describe('rate limiting', () => {
  it('answers 429 rate_limited with Retry-After once a token passes its limit, and only for that token', async () => {
    const { limited, sent } = await hammerUntilLimited(TEST_TOKEN, 2 * LIMIT + 20);
    expect(limited).toBeDefined();
    expect(sent).toBeGreaterThan(LIMIT);
    expect(limited!.headers.get('Retry-After')).toBe('60');
    expect(((await limited!.json()) as { error: { code: string } }).error.code).toBe('rate_limited');

    const other = await ctx.worker.fetchPage({ url: 'not-a-url' }, { token: OTHER_TOKEN });
    expect(other.status).toBe(400);
  });
});
