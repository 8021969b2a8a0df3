import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { LaunchBrowser } from '../../src/browser-session.js';
import { createApp } from '../../src/app.js';
import type { Env } from '../../src/config.js';

const TOKEN = 'unit-test-token';
const BASE_ENV = { API_TOKENS: TOKEN, BROWSER: {} as Fetcher } satisfies Partial<Env>;

function setup(env: Partial<Env> = {}) {
  const launch = vi.fn<LaunchBrowser>(async () => {
    throw new Error('no browser in unit tests');
  });
  const app = createApp({ launchBrowser: launch });
  const call = (path: string, init: RequestInit = {}) => app.request(path, init, { ...BASE_ENV, ...env });
  const post = (body: string | ReadableStream, headers: Record<string, string> = {}, extra: RequestInit = {}) =>
    call('/api/fetch', {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', ...headers },
      body,
      ...extra,
    });
  return { app, launch, call, post };
}

async function errorOf(response: Response) {
  expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
  expect(response.headers.get('X-Request-Id')).toBeTruthy();
  const body = (await response.json()) as { error: { code: string; message: string; details?: unknown } };
  expect(Object.keys(body)).toEqual(['error']);
  return body.error;
}

const VALID = JSON.stringify({ url: 'https://example.com/' });

// The app logs 5xx causes; capture them so tests can check that no secret reaches a log line.
let consoleError: MockInstance<typeof console.error>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  const logged = consoleError.mock.calls.flat().map(String).join('\n');
  expect(logged).not.toContain(TOKEN);
  consoleError.mockRestore();
});

describe('authentication', () => {
  it('returns 401 with a Bearer challenge when the header is missing, without running the handler', async () => {
    const { post, launch } = setup();
    const response = await post(VALID, { Authorization: '' });
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer /);
    expect((await errorOf(response)).code).toBe('unauthorized');
    expect(launch).not.toHaveBeenCalled();
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
    const { post, launch } = setup();
    const response = await post(VALID, { Authorization: 'Bearer wrong-token' });
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
    expect(launch).not.toHaveBeenCalled();
  });

  it('checks the token before reading the body', async () => {
    const { post } = setup();
    const response = await post('{not json', { Authorization: 'Bearer wrong-token', 'Content-Type': 'text/plain' });
    expect((await errorOf(response)).code).toBe('unauthorized');
  });

  it('accepts every token of a rotation pair and the scheme in any case', async () => {
    const { post, launch } = setup({ API_TOKENS: `old-one,${TOKEN}` });
    expect((await post(VALID, { Authorization: 'Bearer old-one' })).status).toBe(503);
    expect((await post(VALID, { Authorization: `bearer ${TOKEN}` })).status).toBe(503);
    expect(launch).toHaveBeenCalledTimes(2);
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
    const { post, launch } = setup();
    const response = await post(JSON.stringify({ url: 'ftp://x', raw: 'yes', typo: 1 }));
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_request');
    expect((error.details as { field: string }[]).map((d) => d.field).sort()).toEqual(['raw', 'typo', 'url']);
    expect(launch).not.toHaveBeenCalled();
  });
});

describe('target guard', () => {
  it.each(['http://127.0.0.1/', 'http://localhost:8080/', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/', 'http://0x7f000001/'])(
    'answers 403 forbidden_target for %s when private networks are not allowed',
    async (url) => {
      const { post, launch } = setup({ ALLOW_PRIVATE_NETWORK: 'false' });
      const response = await post(JSON.stringify({ url }));
      expect(response.status).toBe(403);
      expect((await errorOf(response)).code).toBe('forbidden_target');
      expect(launch).not.toHaveBeenCalled();
    },
  );

  it('lets a private target through when ALLOW_PRIVATE_NETWORK is "true"', async () => {
    const { post, launch } = setup({ ALLOW_PRIVATE_NETWORK: 'true' });
    expect((await post(JSON.stringify({ url: 'http://127.0.0.1/' }))).status).toBe(503);
    expect(launch).toHaveBeenCalledOnce();
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

  it('launches the browser in the requested country', async () => {
    const { post, launch } = setup();
    await post(JSON.stringify({ url: 'https://example.com/', country: 'jp' }));
    expect(launch).toHaveBeenCalledWith(BASE_ENV.BROWSER, { location: 'JP' });
  });

  it('launches without a location when no country is given', async () => {
    const { post, launch } = setup();
    await post(VALID);
    expect(launch).toHaveBeenCalledWith(BASE_ENV.BROWSER, {});
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
    const logged = consoleError.mock.calls.flat().map(String).join('\n');
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
