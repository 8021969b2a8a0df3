import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createApp } from '../../../src/api/app.js';
import type { Env } from '../../../src/env.js';
import type { RenderCall, RenderOutcome } from '../../../src/browser/render-call.js';

const TOKEN = 'unit-test-token';

const UNAVAILABLE: RenderOutcome = {
  ok: false,
  error: { code: 'browser_unavailable', message: 'No browser is available right now; retry later.', headers: { 'Retry-After': '5' } },
  timings: { acquire: 3 },
};

/** A stand-in for the BrowserDirectory namespace: records directory names and calls, answers with `outcome`. */
function fakeDirectory(outcome: RenderOutcome) {
  const names: string[] = [];
  const admit = vi.fn(async (_call: RenderCall) => outcome);
  const namespace = {
    idFromName: (name: string) => {
      names.push(name);
      return name;
    },
    get: () => ({ admit }),
  };
  return { namespace: namespace as unknown as Env['BROWSER_DIRECTORY'], names, admit };
}

function setup(env: Partial<Env> = {}, outcome: RenderOutcome = UNAVAILABLE) {
  const directory = fakeDirectory(outcome);
  const admit = directory.admit;
  const app = createApp();
  const baseEnv = { API_TOKENS: TOKEN, BROWSER: {} as Fetcher, BROWSER_DIRECTORY: directory.namespace } satisfies Partial<Env>;
  const call = (path: string, init: RequestInit = {}) => app.request(path, init, { ...baseEnv, ...env });
  const post = (body: string | ReadableStream, headers: Record<string, string> = {}, extra: RequestInit = {}) =>
    call('/api/fetch', {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', ...headers },
      body,
      ...extra,
    });
  return { app, admit, directory, call, post };
}

async function errorOf(response: Response) {
  expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
  expect(response.headers.get('X-Request-Id')).toBeTruthy();
  const body = (await response.json()) as { error: { code: string; message: string; details?: unknown } };
  expect(Object.keys(body)).toEqual(['error']);
  return body.error;
}

const VALID = JSON.stringify({ url: 'https://example.com/' });

// The app writes one JSON line per request (console.error for 5xx); capture them so tests can read
// them and check that no secret reaches a log line.
let consoleError: MockInstance<typeof console.error>;
let consoleLog: MockInstance<typeof console.log>;
const loggedLines = () => [...consoleLog.mock.calls, ...consoleError.mock.calls].flat().map(String);
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  consoleLog = vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterEach(() => {
  expect(loggedLines().join('\n')).not.toContain(TOKEN);
  consoleError.mockRestore();
  consoleLog.mockRestore();
});

describe('authentication', () => {
  it('returns 401 with a Bearer challenge when the header is missing, without running the handler', async () => {
    const { post, admit } = setup();
    const response = await post(VALID, { Authorization: '' });
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer /);
    expect((await errorOf(response)).code).toBe('unauthorized');
    expect(admit).not.toHaveBeenCalled();
  });

  it.each(['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer two tokens', `Token ${TOKEN}`])(
    'returns 401 for a malformed header %j',
    async (header) => {
      const { post } = setup();
      const response = await post(VALID, { Authorization: header });
      expect(response.status).toBe(401);
      expect((await errorOf(response)).code).toBe('unauthorized');
    },
  );

  it('returns 401 with error="invalid_token" for an unknown token', async () => {
    const { post, admit } = setup();
    const response = await post(VALID, { Authorization: 'Bearer wrong-token' });
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
    expect(admit).not.toHaveBeenCalled();
  });

  it('checks the token before reading the body', async () => {
    const { post } = setup();
    const response = await post('{not json', { Authorization: 'Bearer wrong-token', 'Content-Type': 'text/plain' });
    expect((await errorOf(response)).code).toBe('unauthorized');
  });

  it('accepts every token of a rotation pair and the scheme in any case', async () => {
    const { post, admit } = setup({ API_TOKENS: `old-one,${TOKEN}` });
    expect((await post(VALID, { Authorization: 'Bearer old-one' })).status).toBe(503);
    expect((await post(VALID, { Authorization: `bearer ${TOKEN}` })).status).toBe(503);
    expect(admit).toHaveBeenCalledTimes(2);
  });

  it('answers 503 not_configured when no token is configured, whatever the request', async () => {
    const { post } = setup({ API_TOKENS: ' , ' });
    const response = await post(VALID);
    expect(response.status).toBe(503);
    expect((await errorOf(response)).code).toBe('not_configured');
  });

  it('never echoes the presented token', async () => {
    const { post } = setup();
    const response = await post(VALID, { Authorization: 'Bearer secret-guess-123' });
    expect(await response.text()).not.toContain('secret-guess-123');
  });
});

describe('request body', () => {
  it('answers 415 when Content-Type is not JSON', async () => {
    const { post } = setup();
    const response = await post(VALID, { 'Content-Type': 'text/plain' });
    expect(response.status).toBe(415);
    expect((await errorOf(response)).code).toBe('unsupported_media_type');
  });

  it('answers 415 when Content-Type is missing', async () => {
    const { call } = setup();
    const response = await call('/api/fetch', {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
      body: new Blob([VALID]),
    });
    expect(response.status).toBe(415);
  });

  it('accepts a JSON Content-Type with parameters', async () => {
    const { post } = setup();
    expect((await post(VALID, { 'Content-Type': 'application/json; charset=utf-8' })).status).toBe(503);
  });

  it('answers 413 for a body over 64 KiB', async () => {
    const { post } = setup();
    const response = await post(JSON.stringify({ url: 'https://example.com/', pad: 'x'.repeat(70_000) }));
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe('payload_too_large');
  });

  it('answers 413 for a streamed body that grows past 64 KiB without a length', async () => {
    const { post } = setup();
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await post(stream, {}, { duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
  });

  it.each([
    ['not JSON', '{"url": '],
    ['a JSON array', '[]'],
    ['a JSON string', '"https://example.com"'],
    ['empty', ''],
  ])('answers 400 malformed_json when the body is %s', async (_name, body) => {
    const { post } = setup();
    const response = await post(body);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('malformed_json');
  });

  it('answers 400 malformed_json when the body is not UTF-8', async () => {
    const { post } = setup();
    const response = await post(new Blob([new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])]) as unknown as string);
    expect((await errorOf(response)).code).toBe('malformed_json');
  });

  it('answers 400 invalid_request with details for every failing field', async () => {
    const { post, admit } = setup();
    const response = await post(JSON.stringify({ url: 'ftp://x', raw: 'yes', typo: 1 }));
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_request');
    expect((error.details as { field: string }[]).map((d) => d.field).sort()).toEqual(['raw', 'typo', 'url']);
    expect(admit).not.toHaveBeenCalled();
  });
});

describe('target guard', () => {
  it.each([
    'http://127.0.0.1/',
    'http://localhost:8080/',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/',
    'http://0x7f000001/',
  ])('answers 403 forbidden_target for %s when private networks are not allowed', async (url) => {
    const { post, admit } = setup({ ALLOW_PRIVATE_NETWORK: 'false' });
    const response = await post(JSON.stringify({ url }));
    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe('forbidden_target');
    expect(admit).not.toHaveBeenCalled();
  });

  it('lets a private target through when ALLOW_PRIVATE_NETWORK is "true"', async () => {
    const { post, admit } = setup({ ALLOW_PRIVATE_NETWORK: 'true' });
    expect((await post(JSON.stringify({ url: 'http://127.0.0.1/' }))).status).toBe(503);
    expect(admit).toHaveBeenCalledOnce();
  });
});

describe('browser acquisition', () => {
  it('answers 503 browser_unavailable with Retry-After when no browser can be launched', async () => {
    const { post } = setup();
    const response = await post(VALID);
    expect(response.status).toBe(503);
    expect(response.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect((await errorOf(response)).code).toBe('browser_unavailable');
  });

  it('renders through the directory of the requested country, passing the location', async () => {
    const { post, directory } = setup();
    await post(JSON.stringify({ url: 'https://example.com/', country: 'jp' }));
    expect(directory.names).toEqual(['browser-directory:JP']);
    expect(directory.admit.mock.calls[0]?.[0].location).toBe('JP');
  });

  it('renders through the location-less directory when no country is given', async () => {
    const { post, directory } = setup();
    await post(VALID);
    expect(directory.names).toEqual(['browser-directory:any']);
    expect(directory.admit.mock.calls[0]?.[0].location).toBeUndefined();
  });

  it("passes the request and the deployment limits to the location's directory", async () => {
    const { post, directory } = setup({
      NAVIGATION_TIMEOUT_MS: '1234',
      MAX_CONTENT_BYTES: '999',
      MAX_PDF_BYTES: '4096',
      MAX_PDF_PAGES: '7',
      BLOCK_MEDIA: 'false',
      MAX_BROWSERS_PER_LOCATION: '3',
      MAX_PAGES_PER_BROWSER: '5',
      QUEUE_TIMEOUT_MS: '2500',
    });
    await post(JSON.stringify({ url: 'https://example.com/', wait_event: 'load', wait_ms: 700 }));
    expect(directory.admit.mock.calls[0]?.[0]).toEqual({
      location: undefined,
      setup: { proxy: undefined, blockResources: false, guard: { allowPrivateNetwork: false } },
      load: {
        url: 'https://example.com/',
        waitEvent: 'load',
        waitMs: 700,
        scrollSteps: 0,
        consent: 'reject',
        navigationTimeoutMs: 1234,
        maxContentBytes: 999,
        maxPdfBytes: 4096,
        maxPdfPages: 7,
        format: 'html',
        metadata: false,
        mainContent: false,
      },
      idleCloseMs: 60000,
      fleet: { maxBrowsers: 3, maxPages: 5, queueMs: 2500 },
    });
  });

  it('asks the browser for what a reader sees when the output is markdown', async () => {
    const { post, directory } = setup();
    await post(JSON.stringify({ url: 'https://example.com/', output_format: 'markdown' }));
    expect(directory.admit.mock.calls[0]?.[0].load.format).toBe('markdown');
  });

  it.each([
    [{ include_metadata: true }, true],
    // With raw too: the stored render must serve a later JSON answer of the same key.
    [{ include_metadata: true, raw: true }, true],
    [{ include_metadata: false }, false],
    [{}, false],
  ])('asks the browser for the metadata exactly when include_metadata is true (%j)', async (fields, asked) => {
    const { post, directory } = setup();
    await post(JSON.stringify({ url: 'https://example.com/', ...fields }));
    expect(directory.admit.mock.calls[0]?.[0].load.metadata).toBe(asked);
  });

  it('hands the browser a proxy route resolved once, with the country template applied', async () => {
    const PROXIES = JSON.stringify({
      dc: {
        kind: 'datacenter',
        server: 'http://dc.example:3128',
        username: 'acct',
        password: 'pw',
        country_username: '{username}-country-{country}',
      },
    });
    const { post, directory } = setup({ PROXIES, ALLOW_PRIVATE_NETWORK: 'true' });
    await post(JSON.stringify({ url: 'https://example.com/', proxy_name: 'dc', country: 'FR' }));
    expect(directory.names).toEqual(['browser-directory:any']);
    expect(directory.admit.mock.calls[0]?.[0].setup).toEqual({
      proxy: { name: 'dc', server: 'http://dc.example:3128', username: 'acct-country-fr', password: 'pw' },
      blockResources: true,
      guard: { allowPrivateNetwork: true },
    });
  });
});

const PAGE: RenderOutcome = {
  ok: true,
  page: {
    content: '<!DOCTYPE html><html><head></head><body><h1>Hi</h1><p><a href="/x">x</a></p></body></html>',
    form: 'html',
    finalUrl: 'https://example.com/final',
    status: 404,
    headers: { 'content-type': 'text/html', 'x-origin': 'yes' },
    waitResult: 'timeout',
    documentKind: 'html',
  },
  timings: { acquire: 1.5, navigate: 20, wait: 30, serialize: 4 },
};

const MARKDOWN_PAGE: RenderOutcome = {
  ...PAGE,
  page: { ...(PAGE.ok && PAGE.page)!, content: '# Hi\n\n[x](https://example.com/x)\n', form: 'markdown' },
};

const JSON_PAGE: RenderOutcome = {
  ...PAGE,
  page: {
    ...(PAGE.ok && PAGE.page)!,
    content: '<html><body><pre>{"a":1}</pre></body></html>',
    headers: { 'content-type': 'application/json' },
    documentKind: 'json',
  },
};

describe('successful fetches', () => {
  it('answers JSON with exactly data, status and headers, and the documented response headers', async () => {
    const { post } = setup({}, PAGE);
    const response = await post(VALID);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: PAGE.ok && PAGE.page.content,
      status: 404,
      headers: { 'content-type': 'text/html', 'x-origin': 'yes' },
    });
    expect(response.headers.get('X-Final-Url')).toBe('https://example.com/final');
    expect(response.headers.get('X-Wait-Result')).toBe('timeout');
    expect(response.headers.get('X-Page-Status')).toBe('404');
    expect(response.headers.get('Server-Timing')).toMatch(
      /^acquire;dur=1\.5, navigate;dur=20\.0, wait;dur=30\.0, serialize;dur=4\.0, convert;dur=[\d.]+$/,
    );
  });

  it('answers raw markdown as text/plain, as the browser side made it', async () => {
    const { post } = setup({}, MARKDOWN_PAGE);
    const response = await post(JSON.stringify({ url: 'https://example.com/', output_format: 'markdown', raw: true }));
    expect(response.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('# Hi\n\n[x](https://example.com/x)\n');
  });

  it('adds exactly the metadata the browser read when include_metadata is true, and nothing otherwise', async () => {
    const metadata = {
      title: 'Hi',
      description: null,
      language: 'en',
      canonical_url: 'https://example.com/final',
      site_name: null,
      author: null,
      published_time: null,
      image: null,
    };
    const withMetadata: RenderOutcome = { ...PAGE, page: { ...(PAGE.ok && PAGE.page)!, metadata } };
    const asked = await setup({}, withMetadata).post(JSON.stringify({ url: 'https://example.com/', include_metadata: true }));
    expect(await asked.json()).toEqual({
      data: PAGE.ok && PAGE.page.content,
      status: 404,
      headers: PAGE.ok && PAGE.page.headers,
      metadata,
    });
    const notAsked = await setup({}, PAGE).post(VALID);
    expect(Object.keys((await notAsked.json()) as object)).toEqual(['data', 'status', 'headers']);
  });

  it.each([
    ['main', 'main'],
    [undefined, 'full'],
  ] as const)('says X-Content-Mode when only_main_content is true (the browser said %s)', async (said, header) => {
    const outcome: RenderOutcome = { ...PAGE, page: { ...(PAGE.ok && PAGE.page)!, ...(said ? { contentMode: said } : {}) } };
    const { post, directory } = setup({}, outcome);
    const response = await post(JSON.stringify({ url: 'https://example.com/', only_main_content: true }));
    expect(directory.admit.mock.calls[0]?.[0].load.mainContent).toBe(true);
    expect(response.headers.get('X-Content-Mode')).toBe(header);
  });

  it('sends no X-Content-Mode without only_main_content', async () => {
    const response = await setup({}, PAGE).post(VALID);
    expect(response.headers.has('X-Content-Mode')).toBe(false);
  });

  it('answers raw html as text/html', async () => {
    const { post } = setup({}, PAGE);
    const response = await post(JSON.stringify({ url: 'https://example.com/', raw: true }));
    expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toBe(PAGE.ok && PAGE.page.content);
  });

  it('answers 502 content_too_large when the content converted in the Worker exceeds MAX_CONTENT_BYTES', async () => {
    // A JSON document's markdown (a fenced block) is made in the Worker and is longer than the 9 bytes of its text.
    const { post } = setup({ MAX_CONTENT_BYTES: '10' }, JSON_PAGE);
    const response = await post(JSON.stringify({ url: 'https://example.com/', output_format: 'markdown' }));
    expect(response.status).toBe(502);
    expect((await errorOf(response)).code).toBe('content_too_large');
  });

  it.each([
    ['target_unreachable', 502],
    ['unsupported_content', 502],
    ['proxy_error', 502],
    ['target_timeout', 504],
    ['internal_error', 500],
  ] as const)('renders a hub error %s as HTTP %i without its cause', async (code, status) => {
    const { post } = setup(
      {},
      { ok: false, error: { code, message: 'Public message.', headers: {}, cause: 'secret detail' }, timings: {} },
    );
    const response = await post(VALID);
    expect(response.status).toBe(status);
    const text = await response.clone().text();
    expect(text).not.toContain('secret detail');
    expect(await errorOf(response)).toEqual({ code, message: 'Public message.' });
  });
});

describe('bot walls (docs/api.md "Blocked pages")', () => {
  const WALL: RenderOutcome = {
    ...PAGE,
    page: { ...(PAGE.ok && PAGE.page)!, status: 403, blocked: { vendor: 'cloudflare', kind: 'challenge' } },
  };
  /** A Workers KV stand-in that records writes, and an execution context that runs what it is handed. */
  function store() {
    const put = vi.fn(async () => undefined);
    const kv = { getWithMetadata: async () => ({ value: null, metadata: null }), put } as unknown as KVNamespace;
    const waited: Promise<unknown>[] = [];
    const ctx = { waitUntil: (work: Promise<unknown>) => waited.push(work), passThroughOnException: () => undefined };
    return { put, kv, ctx: ctx as unknown as ExecutionContext, settled: () => Promise.all(waited) };
  }
  const post = (outcome: RenderOutcome, body: object, cache: ReturnType<typeof store>) =>
    createApp().request(
      '/api/fetch',
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      },
      { API_TOKENS: TOKEN, BROWSER: {} as Fetcher, BROWSER_DIRECTORY: fakeDirectory(outcome).namespace, CACHE: cache.kv },
      cache.ctx,
    );

  it('adds X-Page-Blocked and `blocked` to the JSON answer, and never stores the render', async () => {
    const cache = store();
    const response = await post(WALL, { url: 'https://example.com/', max_age: 60 }, cache);
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Page-Blocked')).toBe('cloudflare');
    expect(response.headers.get('X-Cache')).toBe('MISS');
    expect(await response.json()).toEqual({
      data: PAGE.ok && PAGE.page.content,
      status: 403,
      headers: PAGE.ok && PAGE.page.headers,
      blocked: { vendor: 'cloudflare', kind: 'challenge' },
    });
    await cache.settled();
    expect(cache.put).not.toHaveBeenCalled();
  });

  it('says X-Page-Blocked with raw: true too, and stores an ordinary render (the store is reached)', async () => {
    const cache = store();
    const raw = await post(WALL, { url: 'https://example.com/', raw: true }, cache);
    expect(raw.headers.get('X-Page-Blocked')).toBe('cloudflare');
    expect(await raw.text()).toBe(PAGE.ok && PAGE.page.content);
    await cache.settled();
    expect(cache.put).not.toHaveBeenCalled();
    const ordinary = await post(PAGE, { url: 'https://example.com/' }, cache);
    expect(ordinary.headers.has('X-Page-Blocked')).toBe(false);
    expect(Object.keys((await ordinary.json()) as object)).toEqual(['data', 'status', 'headers']);
    await cache.settled();
    expect(cache.put).toHaveBeenCalledTimes(1);
  });

  it('logs whose wall it was in the request line', async () => {
    await post(WALL, { url: 'https://example.com/' }, store());
    const line = loggedLines().find((text) => text.includes('"path":"/api/fetch"'));
    expect(JSON.parse(line!).blocked).toEqual({ vendor: 'cloudflare', kind: 'challenge' });
  });
});

describe('routing and failures', () => {
  it('answers 404 not_found for an unknown path', async () => {
    const { call } = setup();
    const response = await call('/nope');
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('not_found');
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('answers 405 with Allow: POST for %s /api/fetch', async (method) => {
    const { call } = setup();
    const response = await call('/api/fetch', { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('POST');
    expect((await errorOf(response)).code).toBe('method_not_allowed');
  });

  it('answers 500 internal_error without details when the configuration is broken', async () => {
    const secret = 'proxy-password-xyz';
    const { post } = setup({ PROXIES: `{"a": {"kind": "bad", "password": "${secret}"}}` });
    const response = await post(VALID);
    expect(response.status).toBe(500);
    const text = await response.clone().text();
    expect(text).not.toContain(secret);
    expect(text).not.toMatch(/at \w+ \(|\.ts:\d+/);
    expect((await errorOf(response)).code).toBe('internal_error');
    const logged = loggedLines().join('\n');
    expect(logged).toContain('internal_error');
    expect(logged).not.toContain(secret);
  });

  it('keeps a client X-Request-Id of a safe form and generates one otherwise', async () => {
    const { call } = setup();
    expect((await call('/nope', { headers: { 'X-Request-Id': 'client-123' } })).headers.get('X-Request-Id')).toBe('client-123');
    const generated = (await call('/nope', { headers: { 'X-Request-Id': 'bad id<>' } })).headers.get('X-Request-Id');
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('benchmark routes', () => {
  it('answers 404 for /__bench/naive: the baseline lives in the benchmark Worker only', async () => {
    const { call } = setup();
    const response = await call('/__bench/naive', {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: VALID,
    });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('not_found');
  });
});

describe('rate limiting', () => {
  function limiter(success: boolean) {
    const limit = vi.fn(async (_options: RateLimitOptions) => ({ success }));
    return { limit, binding: { limit } as unknown as RateLimit };
  }

  it('answers 429 rate_limited with Retry-After when the token is over its limit, before reading the body', async () => {
    const { binding } = limiter(false);
    const { post, admit } = setup({ RATE_LIMITER: binding });
    const response = await post('{not json');
    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toBe('60');
    expect((await errorOf(response)).code).toBe('rate_limited');
    expect(admit).not.toHaveBeenCalled();
  });

  it('keys the limit by a fingerprint of the token, never the token', async () => {
    const { binding, limit } = limiter(true);
    const { post } = setup({ RATE_LIMITER: binding });
    await post(VALID);
    const key = limit.mock.calls[0]?.[0].key;
    expect(key).toMatch(/^[0-9a-f]{12}$/);
    expect(key).not.toContain(TOKEN);
  });

  it('lets requests through when the limiter itself fails', async () => {
    const binding = { limit: async () => Promise.reject(new Error('limiter down')) } as unknown as RateLimit;
    const { post, admit } = setup({ RATE_LIMITER: binding });
    await post(VALID);
    expect(admit).toHaveBeenCalledOnce();
  });
});

describe('request log and health', () => {
  it('writes one JSON line per fetch with the token fingerprint, target host, options, outcome and timings', async () => {
    const { post } = setup({}, MARKDOWN_PAGE);
    await post(JSON.stringify({ url: 'https://example.com/path?secret=1', output_format: 'markdown', country: 'de' }));
    const lines = loggedLines().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      method: 'POST',
      path: '/api/fetch',
      status: 200,
      token: expect.stringMatching(/^[0-9a-f]{12}$/),
      targetHost: 'example.com',
      options: { output_format: 'markdown', wait_event: 'networkIdle', wait_ms: 5000, raw: false, proxy_name: 'fast_dc', country: 'DE' },
      timings: { acquire: 1.5, navigate: 20, wait: 30, serialize: 4, convert: expect.any(Number) },
    });
    expect(JSON.stringify(lines[0])).not.toContain('secret=1');
  });

  it('logs the error code of a refused request, and the cause only for 5xx', async () => {
    const { post } = setup();
    await post('{', { Authorization: 'Bearer wrong' });
    await post(VALID);
    const lines = loggedLines().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ status: 401, errorCode: 'unauthorized' });
    expect(lines[0]).not.toHaveProperty('cause');
    expect(lines[1]).toMatchObject({ status: 503, errorCode: 'browser_unavailable', cause: expect.any(String) });
  });

  it('answers GET /healthz without a token or a browser', async () => {
    const { call, admit } = setup();
    const response = await call('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(admit).not.toHaveBeenCalled();
  });
});
