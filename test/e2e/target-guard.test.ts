// The private-network guard as deployed (ALLOW_PRIVATE_NETWORK unset → "false" from wrangler.toml):
// loopback and local targets are refused before any browser work, whatever their spelling.
import { describe, expect, it } from 'vitest';
import { useWorker } from './support/e2e-hooks.js';

const ctx = useWorker({ vars: { ALLOW_PRIVATE_NETWORK: 'false' } });

describe('private-network guard', () => {
  it.each([
    ['http://127.0.0.1:PORT/pages/article.html'],
    ['http://2130706433:PORT/'],
    ['http://0x7f.1:PORT/'],
    ['http://localhost:PORT/'],
    ['http://[::ffff:127.0.0.1]:PORT/'],
    ['http://169.254.169.254/latest/meta-data/'],
    ['http://metadata.google.internal/'],
  ])('answers 403 forbidden_target for %s and never reaches the target', async (template) => {
    const before = ctx.fixtures.requests.length;
    const response = await ctx.worker.fetchPage({ url: template.replace('PORT', new URL(ctx.fixtures.origin).port) });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('forbidden_target');
    expect(ctx.fixtures.requests.length).toBe(before);
  });
});
