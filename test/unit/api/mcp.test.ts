// The MCP tool's pure parts (paging, argument rules, error text) and POST /mcp through the app with
// the SDK's own client over an in-process fetch, the browser directory faked. The real Worker and browser
// are in test/e2e/api/mcp.test.ts.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../src/api/app.js';
import { readConfig } from '../../../src/api/config.js';
import { fetchPageToolDefinition, parseFetchPageArguments, toolErrorText } from '../../../src/api/mcp/fetch-page-tool.js';
import { contentPart, continuationLine, DEFAULT_MAX_LENGTH } from '../../../src/api/mcp/paging.js';
import { fetchRequestJsonSchema } from '../../../src/api/openapi.js';
import type { RenderCall, RenderOutcome } from '../../../src/browser/render-call.js';
import type { Env } from '../../../src/env.js';
import { ApiError } from '../../../src/errors.js';
import { METADATA_FIELDS, type PageMetadata } from '../../../src/shared/metadata.js';

const TOKEN = 'unit-test-token';
const config = readConfig({ API_TOKENS: TOKEN });

/** Every part of `content` in order, continuation lines stripped, following each part's next index. */
function allParts(content: string, maxLength: number): string[] {
  const parts: string[] = [];
  let start = 0;
  for (;;) {
    const part = contentPart(content, start, maxLength);
    if (part.nextIndex === undefined) return [...parts, part.text];
    const line = `\n\n${continuationLine(part.nextIndex, content.length)}`;
    expect(part.text.endsWith(line)).toBe(true);
    parts.push(part.text.slice(0, -line.length));
    start = part.nextIndex;
  }
}

describe('contentPart', () => {
  it('returns short content whole, without a continuation line', () => {
    expect(contentPart('# Title\n\nText.\n', 0, DEFAULT_MAX_LENGTH)).toEqual({ text: '# Title\n\nText.\n' });
  });

  it('cuts at max_length and names the next start_index', () => {
    expect(contentPart('abcdefghij', 0, 4)).toEqual({
      text: 'abcd\n\n[Content cut at character 4 of 10. To read on, call fetch_page again with the same arguments and start_index 4.]',
      nextIndex: 4,
    });
    expect(contentPart('abcdefghij', 8, 4)).toEqual({ text: 'ij' });
  });

  it('never splits a surrogate pair', () => {
    expect(contentPart('ab😀cd', 0, 3)).toMatchObject({ text: expect.stringMatching(/^ab\n\n/), nextIndex: 2 });
    // A pair that alone is longer than max_length comes whole rather than never.
    expect(contentPart('😀cd', 0, 1)).toMatchObject({ text: expect.stringMatching(/^😀\n\n/), nextIndex: 2 });
  });

  it('answers invalid_request for a start_index past the end', () => {
    expect(() => contentPart('abc', 3, 10)).toThrow(ApiError);
    try {
      contentPart('abc', 5, 10);
    } catch (error) {
      expect((error as ApiError).code).toBe('invalid_request');
      expect((error as ApiError).details).toEqual([{ field: 'start_index', message: 'is past the end of the content (3 characters)' }]);
    }
  });

  it('returns empty content at start_index 0', () => {
    expect(contentPart('', 0, 10)).toEqual({ text: '' });
  });

  it('parts joined are the content, each at most max_length (or one whole pair) long', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (content, maxLength) => {
        const parts = allParts(content, maxLength);
        expect(parts.join('')).toBe(content);
        for (const part of parts) expect(part.length).toBeLessThanOrEqual(Math.max(maxLength, 2));
      }),
    );
  });
});

describe('fetch_page arguments', () => {
  it('default to markdown, the first 20000 characters, and the API defaults', () => {
    const call = parseFetchPageArguments({ url: 'https://example.com/' }, config);
    expect(call).toMatchObject({ maxLength: 20000, startIndex: 0 });
    expect(call.request).toMatchObject({
      url: 'https://example.com/',
      outputFormat: 'markdown',
      waitEvent: 'networkIdle',
      waitMs: 5000,
      raw: false,
      includeMetadata: false,
      onlyMainContent: false,
    });
    expect(parseFetchPageArguments({ url: 'https://example.com/', output_format: null }, config).request.outputFormat).toBe('markdown');
    expect(parseFetchPageArguments({ url: 'https://example.com/', output_format: 'html' }, config).request.outputFormat).toBe('html');
  });

  it('report every failing field with the API messages, raw included as unknown', () => {
    let error: unknown;
    try {
      parseFetchPageArguments({ url: 'nope', raw: true, max_length: 0, start_index: -1, wait_ms: 1.5, proxy_name: 'nowhere' }, config);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(toolErrorText(error as ApiError)).toBe(
      [
        'invalid_request: The request has invalid fields.',
        '- url: must be an absolute http: or https: URL',
        '- wait_ms: must be an integer',
        '- max_length: must be at least 1',
        '- start_index: must be at least 0',
        '- raw: is not a known field',
        '- proxy_name: is not a configured proxy; configured: fast_dc',
      ].join('\n'),
    );
  });

  it('without arguments, name the missing url', () => {
    expect(() => parseFetchPageArguments(undefined, config)).toThrow(
      expect.objectContaining({ code: 'invalid_request', details: [{ field: 'url', message: 'is required and must be a string' }] }),
    );
  });

  it("schema is the API's without raw, plus the paging fields", () => {
    const { inputSchema } = fetchPageToolDefinition(config);
    const api = fetchRequestJsonSchema(config) as { properties: Record<string, unknown> };
    expect(Object.keys(inputSchema.properties as object)).toEqual([
      ...Object.keys(api.properties).filter((field) => field !== 'raw'),
      'max_length',
      'start_index',
    ]);
  });
});

describe('POST /mcp through the app', () => {
  const ARTICLE = '# Hi\n\n' + 'Some words. '.repeat(30);
  const PAGE: RenderOutcome = {
    ok: true,
    page: {
      content: ARTICLE,
      form: 'markdown',
      metadata: { ...(Object.fromEntries(METADATA_FIELDS.map((field) => [field, null])) as PageMetadata), title: 'Hi', language: 'en' },
      finalUrl: 'https://example.com/',
      status: 200,
      headers: { 'content-type': 'text/html' },
      waitResult: 'event',
      documentKind: 'html',
    },
    timings: { acquire: 1, navigate: 2, wait: 3, serialize: 4 },
  };

  let logged: string[] = [];
  beforeEach(() => {
    logged = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void logged.push(line));
    vi.spyOn(console, 'error').mockImplementation((line: string) => void logged.push(line));
  });
  afterEach(() => {
    expect(logged.join('\n')).not.toContain(TOKEN);
    vi.restoreAllMocks();
  });

  function setup(outcome: RenderOutcome, extraEnv: Partial<Env> = {}) {
    const admit = vi.fn(async (_call: RenderCall) => outcome);
    const env = {
      ...extraEnv,
      API_TOKENS: TOKEN,
      BROWSER: {} as Fetcher,
      BROWSER_DIRECTORY: { idFromName: (name: string) => name, get: () => ({ admit }) } as unknown as Env['BROWSER_DIRECTORY'],
    } satisfies Partial<Env>;
    const app = createApp();
    const appFetch = (input: string | URL | Request, init?: RequestInit) => Promise.resolve(app.request(input, init, env));
    return { admit, appFetch };
  }

  async function connect(appFetch: typeof fetch): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL('http://page-fetch.test/mcp'), {
      fetch: appFetch,
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
    });
    const client = new Client({ name: 'unit', version: '1.0.0' });
    await client.connect(transport);
    return client;
  }

  it('answers fetch_page with the hub content, asking for markdown', async () => {
    const { admit, appFetch } = setup(PAGE);
    const client = await connect(appFetch);
    const result = (await client.callTool({
      name: 'fetch_page',
      arguments: { url: 'https://example.com/', max_length: 50 },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: contentPart(ARTICLE, 0, 50).text }]);
    expect(admit).toHaveBeenCalledTimes(1);
    expect(admit.mock.calls[0]![0].load).toMatchObject({ url: 'https://example.com/', format: 'markdown', metadata: false });
    await client.close();
  });

  it('adds the metadata as a second text item with include_metadata', async () => {
    const { appFetch } = setup(PAGE);
    const client = await connect(appFetch);
    const result = (await client.callTool({
      name: 'fetch_page',
      arguments: { url: 'https://example.com/', include_metadata: true },
    })) as CallToolResult;
    expect(result.content).toEqual([
      { type: 'text', text: ARTICLE },
      { type: 'text', text: JSON.stringify({ metadata: (PAGE.ok && PAGE.page.metadata)! }) },
    ]);
    await client.close();
  });

  it('turns a browser error into a tool error naming its code, and logs the code', async () => {
    const { appFetch } = setup({
      ok: false,
      error: {
        code: 'browser_unavailable',
        message: 'No browser is available right now; retry later.',
        headers: {},
        cause: 'launch refused',
      },
      timings: { acquire: 3 },
    });
    const client = await connect(appFetch);
    const result = await client.callTool({ name: 'fetch_page', arguments: { url: 'https://example.com/' } });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'browser_unavailable: No browser is available right now; retry later.' }],
      isError: true,
    });
    await client.close();
    // The tool call's line: an MCP answer is 200 whatever the tool's outcome, so the log carries the code.
    const lines = logged.map((entry) => JSON.parse(entry) as Record<string, unknown>);
    const line = lines.find((entry) => entry.method === 'POST' && entry.errorCode !== undefined);
    expect(line).toMatchObject({ path: '/mcp', status: 200, errorCode: 'browser_unavailable', cause: 'launch refused' });
  });

  it.each([
    ['challenge', 'a longer wait_ms, another proxy_name or country, or a later try may pass it.'],
    ['captcha', 'It asks a person to solve a CAPTCHA: another proxy_name or country, or a later try, may not be asked.'],
    ['block', 'The site refuses this client: another proxy_name or country, or a later try, may be let in.'],
  ] as const)('answers a bot wall (%s) as a tool error naming the vendor and what to try, without its content', async (kind, advice) => {
    const wall: RenderOutcome = { ...PAGE, page: { ...(PAGE.ok && PAGE.page)!, status: 403, blocked: { vendor: 'datadome', kind } } };
    const { appFetch } = setup(wall);
    const client = await connect(appFetch);
    const result = (await client.callTool({
      name: 'fetch_page',
      arguments: { url: 'https://example.com/', wait_ms: 2000 },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content).toHaveLength(1);
    const text = (result.content[0] as { text: string }).text;
    expect(text.split('\n')[0]).toBe(
      `blocked: https://example.com/ answered with a datadome ${kind} page (status 403), not the page's content.`,
    );
    expect(text.endsWith(advice)).toBe(true);
    if (kind === 'challenge') expect(text).toContain('within wait_ms (2000 ms)');
    expect(text).not.toContain('Some words.');
    await client.close();
  });

  it('refuses an unknown tool with a protocol error', async () => {
    const { appFetch, admit } = setup(PAGE);
    const client = await connect(appFetch);
    await expect(client.callTool({ name: 'fetch_everything', arguments: {} })).rejects.toThrow(/Unknown tool: fetch_everything/);
    expect(admit).not.toHaveBeenCalled();
    await client.close();
  });

  it('answers 401 before reading the body, and 405 to GET and DELETE', async () => {
    const { appFetch } = setup(PAGE);
    const unauthorized = await appFetch('http://page-fetch.test/mcp', { method: 'POST', body: '{not json' });
    expect(unauthorized.status).toBe(401);
    for (const method of ['GET', 'DELETE']) {
      const response = await appFetch('http://page-fetch.test/mcp', { method, headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(405);
      expect(response.headers.get('Allow')).toBe('POST');
    }
  });

  it('answers with X-Request-Id and Cache-Control: no-store like the API', async () => {
    const { appFetch } = setup(PAGE);
    const response = await appFetch('http://page-fetch.test/mcp', {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${TOKEN}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'X-Request-Id': 'agent-call-1',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'unit', version: '1' } },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Request-Id')).toBe('agent-call-1');
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect(((await response.json()) as { result: { serverInfo: unknown } }).result.serverInfo).toEqual({
      name: 'page-fetch',
      title: 'Page Fetch',
      version: '0.1.0',
    });
  });

  it('answers 429 rate_limited with Retry-After when the token is over its limit, as /api/fetch does', async () => {
    const limiter = { limit: vi.fn(async () => ({ success: false })) } as unknown as RateLimit;
    const { appFetch, admit } = setup(PAGE, { RATE_LIMITER: limiter });
    const response = await appFetch('http://page-fetch.test/mcp', {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toBe('60');
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    expect(admit).not.toHaveBeenCalled();
  });

  it('refuses a body over 64 KiB with 413, without reading a tool call out of it', async () => {
    const { appFetch, admit } = setup(PAGE);
    const response = await appFetch('http://page-fetch.test/mcp', {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'fetch_page', arguments: { url: `https://example.com/?q=${'a'.repeat(70_000)}` } },
      }),
    });
    expect(response.status).toBe(413);
    expect(admit).not.toHaveBeenCalled();
  });

  it('answers a body that is not JSON-RPC with a JSON-RPC parse error', async () => {
    const { appFetch } = setup(PAGE);
    const response = await appFetch('http://page-fetch.test/mcp', {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: '{not json',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON' }, id: null });
  });
});
