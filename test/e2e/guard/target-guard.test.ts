// The private-network guard as deployed (ALLOW_PRIVATE_NETWORK unset → "false" from wrangler.toml):
// loopback and local targets are refused before any browser work, whatever their spelling.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';
import { TEST_TOKEN } from '../support/worker.js';

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

describe('private-network guard on the MCP tool', () => {
  it('fetch_page on a private URL is a tool error naming forbidden_target, and never reaches the target', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${ctx.worker.origin}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${TEST_TOKEN}` } },
    });
    const client = new Client({ name: 'page-fetch-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      const before = ctx.fixtures.requests.length;
      const result = await client.callTool({ name: 'fetch_page', arguments: { url: ctx.fixtures.url('/pages/article.html') } });
      expect(result).toEqual({
        content: [{ type: 'text', text: 'forbidden_target: The target host is not allowed (loopback address).' }],
        isError: true,
      });
      expect(ctx.fixtures.requests.length).toBe(before);
    } finally {
      await client.close();
    }
  });
});
