// The site tools of POST /mcp (map_site, crawl_site, get_job) against the real Worker and its local
// Durable Objects and Queue, driven by the MCP SDK's own client, on the fixture site.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';
import { TEST_TOKEN } from '../support/worker.js';

const ctx = useWorker({ vars: { CRAWL_HOST_DELAY_MS: '1' } });
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
const site = (path: string) => ctx.fixtures.url(path);

async function call(name: string, args: Record<string, unknown>): Promise<{ result: CallToolResult; json: unknown }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${ctx.worker.origin}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${TEST_TOKEN}` } },
  });
  const client = new Client({ name: 'page-fetch-e2e', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  const text = first?.type === 'text' ? first.text : '';
  return { result, json: result.isError ? text : JSON.parse(text) };
}

describe('MCP site tools', () => {
  it('map_site answers the map', async () => {
    const { result, json } = await call('map_site', { url: site('/site/'), search: 'blog' });
    expect(result.isError).toBeFalsy();
    expect(json).toEqual({ links: [{ url: site('/site/blog/first') }, { url: site('/site/blog/second') }] });
  });

  it('crawl_site starts a crawl or a batch, and get_job reads it', async () => {
    const crawl = await call('crawl_site', { url: site('/site/'), max_depth: 0 });
    expect(crawl.result.isError).toBeFalsy();
    const { id } = crawl.json as { id: string; url: string };
    let job = (await call('get_job', { id })).json as { status: string; kind: string; pages: { url: string; state: string }[] };
    const deadline = Date.now() + 60_000;
    while ((job.status === 'queued' || job.status === 'running') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      job = (await call('get_job', { id })).json as typeof job;
    }
    expect(job).toMatchObject({ kind: 'crawl', status: 'completed', pages: [{ url: site('/site/'), state: 'fetched' }] });

    const batch = await call('crawl_site', { urls: [site('/site/docs/guide')], page: { output_format: 'markdown' } });
    expect(((await call('get_job', { id: (batch.json as { id: string }).id })).json as { kind: string }).kind).toBe('batch');
  });

  it('answers API errors as tool errors naming the code and the fields', async () => {
    const bad = await call('crawl_site', { url: site('/site/'), max_depth: -1 });
    expect(bad.result.isError).toBe(true);
    expect(bad.json).toContain('invalid_request');
    expect(bad.json).toContain('max_depth');
    const missing = await call('get_job', { id: '00000000-0000-4000-8000-000000000000' });
    expect(missing.result.isError).toBe(true);
    expect(missing.json).toContain('not_found');
    const noUrl = await call('map_site', {});
    expect(noUrl.result.isError).toBe(true);
    expect(noUrl.json).toContain('url');
  });
});
