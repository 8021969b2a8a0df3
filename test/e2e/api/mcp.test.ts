// POST /mcp against the real Worker, driven by the MCP SDK's own client (Client +
// StreamableHTTPClientTransport): initialize, the tool list checked against the served API schema,
// fetch_page on fixture pages (whole, in parts, with metadata), and API errors as tool errors.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closedPort } from '../support/fixture-server.js';
import { useWorker } from '../support/e2e-hooks.js';
import { TEST_TOKEN } from '../support/worker.js';
import { REPORT } from '../support/pdf-routes.js';

const ctx = useWorker();
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${ctx.worker.origin}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${TEST_TOKEN}` } },
  });
  const client = new Client({ name: 'page-fetch-e2e', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

async function callFetchPage(args: Record<string, unknown>): Promise<CallToolResult> {
  const { client } = await connect();
  return (await client.callTool({ name: 'fetch_page', arguments: args })) as CallToolResult;
}

function texts(result: CallToolResult): string[] {
  return result.content.map((item) => {
    if (item.type !== 'text') throw new Error(`expected text content, got ${item.type}`);
    return item.text;
  });
}

const CONTINUATION =
  /\n\n\[Content cut at character (\d+) of (\d+)\. To read on, call fetch_page again with the same arguments and start_index (\d+)\.\]$/;

async function apiMarkdown(url: string): Promise<string> {
  const response = await ctx.worker.fetchPage({ url, output_format: 'markdown' });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: string }).data;
}

describe('MCP endpoint', () => {
  it('initializes without a session and names the server and its one capability', async () => {
    const { client, transport } = await connect();
    expect(client.getServerVersion()).toEqual({ name: 'page-fetch', title: 'Page Fetch', version: '0.1.0' });
    expect(client.getServerCapabilities()).toEqual({ tools: {} });
    expect(client.getInstructions()).toContain('fetch_page');
    expect(transport.sessionId).toBeUndefined();
    expect(await client.ping()).toEqual({});
  });

  it('lists fetch_page with the API request schema (without raw), paging fields and read-only annotations', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    // fetch_page first, then the site tools (test/e2e/sites/mcp-site-tools.test.ts).
    expect(tools.map((tool) => tool.name)).toEqual(['fetch_page', 'map_site', 'crawl_site', 'get_job']);
    const tool = tools[0] as Tool;
    expect(tool.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });

    const openApi = (await (await fetch(`${ctx.worker.origin}/openapi.json`)).json()) as {
      components: { schemas: { FetchRequest: { properties: Record<string, Record<string, unknown>>; required: string[] } } };
    };
    const api = openApi.components.schemas.FetchRequest;
    const properties = tool.inputSchema.properties as Record<string, Record<string, unknown>>;
    const { raw: _raw, ...apiFields } = api.properties;
    expect(Object.keys(properties)).toEqual([...Object.keys(apiFields), 'max_length', 'start_index']);
    expect(tool.inputSchema.required).toEqual(api.required);
    expect(tool.inputSchema.additionalProperties).toBe(false);
    // Each API field's type and limits carry over; only the docs of the tool's own defaults differ.
    const typeOf = ({ description: _d, default: _f, ...type }: Record<string, unknown>) => type;
    for (const [field, schema] of Object.entries(apiFields)) expect(typeOf(properties[field]!), field).toEqual(typeOf(schema));
    expect(properties.output_format!.default).toBe('markdown');
    expect(properties.max_length).toMatchObject({ default: 20000 });
    expect(properties.start_index).toMatchObject({ default: 0 });
  });

  it('fetch_page returns the markdown the API returns for the same page', async () => {
    const url = ctx.fixtures.url('/pages/main-article.html');
    const result = await callFetchPage({ url });
    expect(result.isError).toBeFalsy();
    expect(texts(result)).toEqual([await apiMarkdown(url)]);
    expect(texts(result)[0]).toContain('# Tide pools of the north coast');
  });

  it('pages long content: a marker cut across two parts is whole when the parts are joined', async () => {
    const url = ctx.fixtures.url('/pages/main-article.html');
    const whole = await apiMarkdown(url);
    const marker = 'Tide pools form where the sea leaves water behind';
    const cutAt = whole.indexOf(marker) + 10; // inside the marker
    expect(cutAt).toBeGreaterThan(10);

    const first = texts(await callFetchPage({ url, max_length: cutAt }));
    const match = CONTINUATION.exec(first[0]!);
    expect(match?.slice(1).map(Number)).toEqual([cutAt, whole.length, cutAt]);
    const firstPart = first[0]!.replace(CONTINUATION, '');
    expect(firstPart).toBe(whole.slice(0, cutAt));
    expect(firstPart).not.toContain(marker);

    const second = texts(await callFetchPage({ url, max_length: 100_000, start_index: cutAt }));
    expect(second[0]).not.toMatch(CONTINUATION);
    expect(second[0]).not.toContain(marker);
    expect(firstPart + second[0]).toBe(whole);
  });

  it('pages through a PDF the same way: its parts joined are the whole converted text', async () => {
    const url = ctx.fixtures.url('/pdf/report.pdf');
    const whole = await apiMarkdown(url);
    const cutAt = whole.indexOf(REPORT.pageTwo) + 5;
    const first = texts(await callFetchPage({ url, max_length: cutAt }));
    expect(CONTINUATION.exec(first[0]!)?.slice(1).map(Number)).toEqual([cutAt, whole.length, cutAt]);
    const second = texts(await callFetchPage({ url, max_length: 100_000, start_index: cutAt }));
    expect(first[0]!.replace(CONTINUATION, '') + second[0]).toBe(whole);
    expect(whole.startsWith(`# ${REPORT.title}\n\n`)).toBe(true);
  });

  it('include_metadata adds the page metadata as a second text item', async () => {
    const result = await callFetchPage({ url: ctx.fixtures.url('/pages/metadata.html'), include_metadata: true });
    expect(result.isError).toBeFalsy();
    const [, metadata] = texts(result);
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/pages/metadata.html'), include_metadata: true });
    const { metadata: fromApi } = (await response.json()) as { metadata: { title: string } };
    expect(fromApi.title).toBe('Story title');
    expect(JSON.parse(metadata!)).toEqual({ metadata: fromApi });
  });

  it('takes the request controls: a mobile device, headers and cookies reach the page', async () => {
    const result = await callFetchPage({
      url: ctx.fixtures.url('/visit/probe?case=mcp'),
      device: 'mobile',
      headers: { 'X-Mcp-Visit': 'yes' },
      cookies: [{ name: 'mcp', value: 'cookie' }],
    });
    expect(result.isError).toBeFalsy();
    const [markdown] = texts(result);
    expect(markdown).toContain('coarse: true');
    expect(markdown).toContain('server-cookie: mcp=cookie');
    const [probe] = ctx.fixtures.requests.filter((request) => request.path === '/visit/probe?case=mcp');
    expect(probe?.headers['x-mcp-visit']).toBe('yes');
  });

  it('refuses a Host header as a tool error naming headers.host, without its value, and reaches no target', async () => {
    const before = ctx.fixtures.requests.length;
    const result = await callFetchPage({ url: ctx.fixtures.url('/visit/probe'), headers: { Host: 'mcp-secret-host' } });
    expect(result.isError).toBe(true);
    expect(texts(result)).toEqual([
      'invalid_request: The request has invalid fields.\n- headers.host: is not accepted: the browser sets it',
    ]);
    expect(ctx.fixtures.requests.length).toBe(before);
  });

  it('an invalid URL is a tool error naming invalid_request and the field, and reaches no target', async () => {
    const before = ctx.fixtures.requests.length;
    const result = await callFetchPage({ url: 'ftp://example.com/file', max_length: 0 });
    expect(result.isError).toBe(true);
    expect(texts(result)).toEqual([
      'invalid_request: The request has invalid fields.\n- url: must be an absolute http: or https: URL\n- max_length: must be at least 1',
    ]);
    expect(ctx.fixtures.requests.length).toBe(before);
  });

  it('raw is not a field of the tool', async () => {
    const result = await callFetchPage({ url: ctx.fixtures.url('/pages/article.html'), raw: true });
    expect(result.isError).toBe(true);
    expect(texts(result)).toEqual(['invalid_request: The request has invalid fields.\n- raw: is not a known field']);
  });

  it('an unreachable target is a tool error with the code and message the API answers', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/`;
    const result = await callFetchPage({ url });
    expect(result.isError).toBe(true);
    expect(texts(result)).toEqual(['target_unreachable: The target could not be reached (net::ERR_CONNECTION_REFUSED).']);
    const response = await ctx.worker.fetchPage({ url });
    expect(await response.json()).toEqual({
      error: { code: 'target_unreachable', message: 'The target could not be reached (net::ERR_CONNECTION_REFUSED).' },
    });
  });

  it('a request without a token is refused with 401 before any MCP handling', async () => {
    const client = new Client({ name: 'page-fetch-e2e', version: '1.0.0' });
    // The SDK's client reports the HTTP status as the error's code, and the API's error body as its message.
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${ctx.worker.origin}/mcp`)))).rejects.toMatchObject({
      code: 401,
      message:
        'Streamable HTTP error: Error POSTing to endpoint: {"error":{"code":"unauthorized","message":"A bearer token is required."}}',
    });
    const response = await fetch(`${ctx.worker.origin}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toBe('Bearer realm="page-fetch"');
    expect(await response.json()).toEqual({ error: { code: 'unauthorized', message: 'A bearer token is required.' } });
  });

  it('GET /mcp answers 405: the server offers no event stream', async () => {
    const response = await fetch(`${ctx.worker.origin}/mcp`, {
      headers: { Authorization: `Bearer ${TEST_TOKEN}`, Accept: 'text/event-stream' },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('POST');
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
  });
});

// A second client: the MCP Inspector's CLI mode, run as a user would (npx @modelcontextprotocol/inspector --cli).
const INSPECTOR = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js', import.meta.url),
);
// The Inspector keeps a catalog and storage under HOME; a throwaway one keeps the machine's clean.
const inspectorHome = mkdtempSync(join(tmpdir(), 'page-fetch-inspector-'));
afterAll(() => rmSync(inspectorHome, { recursive: true, force: true }));

async function inspector(...args: string[]): Promise<unknown> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [INSPECTOR, '--cli', `${ctx.worker.origin}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${TEST_TOKEN}`, ...args],
    { env: { ...process.env, HOME: inspectorHome }, timeout: 60_000 },
  );
  return JSON.parse(stdout);
}

describe('MCP Inspector CLI', () => {
  it('lists fetch_page and the site tools', async () => {
    const { tools } = (await inspector('--method', 'tools/list')) as { tools: Tool[] };
    expect(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint])).toEqual([
      ['fetch_page', true],
      ['map_site', true],
      ['crawl_site', false],
      ['get_job', true],
    ]);
  });

  it('calls fetch_page and gets the first part of the markdown with the continuation line', async () => {
    const url = ctx.fixtures.url('/pages/main-article.html');
    const result = (await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'fetch_page',
      '--tool-arg',
      `url=${url}`,
      'max_length=200',
    )) as CallToolResult;
    const whole = await apiMarkdown(url);
    expect(texts(result)).toEqual([
      `${whole.slice(0, 200)}\n\n[Content cut at character 200 of ${whole.length}. To read on, call fetch_page again with the same arguments and start_index 200.]`,
    ]);
  });
});
