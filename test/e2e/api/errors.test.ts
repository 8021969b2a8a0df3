// The error table against the real stack: what the browser meets (unreachable, downloads, slow
// documents) and what the API refuses before any browser work, plus keep-alive after early answers.
import { request as httpRequest, Agent } from 'node:http';
import { describe, expect, it } from 'vitest';
import { closedPort } from '../support/fixture-server.js';
import { useWorker } from '../support/e2e-hooks.js';
import { TEST_TOKEN } from '../support/worker.js';

// A short navigation timeout keeps the 504 case quick.
const ctx = useWorker({ vars: { NAVIGATION_TIMEOUT_MS: '3000' } });

async function errorOf(response: Response) {
  expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
  expect(response.headers.get('X-Request-Id')).toBeTruthy();
  const text = await response.text();
  expect(text).not.toMatch(/\n\s+at /); // never a stack trace
  return (JSON.parse(text) as { error: { code: string; message: string } }).error;
}

describe('target failures', () => {
  it('answers 502 target_unreachable naming the net error for a refused connection', async () => {
    const response = await ctx.worker.fetchPage({ url: `http://127.0.0.1:${await closedPort()}/` });
    expect(response.status).toBe(502);
    const error = await errorOf(response);
    expect(error.code).toBe('target_unreachable');
    expect(error.message).toContain('net::ERR_CONNECTION_REFUSED');
  });

  it("logs a 5xx's cause without the target's query, and answers without it", async () => {
    const secret = 'SECRET123';
    const path = `/private/path?token=${secret}&other=1#frag-${secret}`;
    const target = `http://127.0.0.1:${await closedPort()}`;
    const response = await ctx.worker.fetchPage({ url: `${target}${path}` });
    expect(response.status).toBe(502);
    const error = await errorOf(response);
    expect(error.code).toBe('target_unreachable');
    expect(error.message).not.toContain(secret);
    expect(error.message).not.toContain('token=');
    // The request's line carries the browser's cause, which names the URL: origin and path only.
    const id = response.headers.get('X-Request-Id')!;
    const line = () =>
      ctx.worker
        .logs()
        .split('\n')
        .find((l) => l.includes(id) && l.includes('"cause"'));
    await expect.poll(line, { timeout: 10_000 }).toBeDefined();
    expect(line()).toContain(`${target}/private/path`);
    expect(line()).toContain('ERR_CONNECTION_REFUSED');
    expect(ctx.worker.logs()).not.toContain(secret);
  });

  it('answers 502 target_unreachable for a name that does not resolve', async () => {
    const response = await ctx.worker.fetchPage({ url: 'http://does-not-exist.invalid/' });
    expect(response.status).toBe(502);
    const error = await errorOf(response);
    expect(error.code).toBe('target_unreachable');
    expect(error.message).toContain('net::ERR_NAME_NOT_RESOLVED');
  });

  it.each([
    ['/photo.png', 'image/png'],
    ['/archive.zip', 'download'],
  ])('answers 502 unsupported_content for the binary %s, naming its type', async (path, named) => {
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url(path) });
    expect(response.status).toBe(502);
    const error = await errorOf(response);
    expect(error.code).toBe('unsupported_content');
    expect(error.message).toContain(named);
  });

  it('answers 504 target_timeout when the main document does not answer within NAVIGATION_TIMEOUT_MS', async () => {
    const started = Date.now();
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/hang'), wait_ms: 1000 });
    expect(response.status).toBe(504);
    expect((await errorOf(response)).code).toBe('target_timeout');
    expect(Date.now() - started).toBeLessThan(3000 + 8000);
  });

  it('answers 504 target_timeout when a PDF target does not finish arriving within NAVIGATION_TIMEOUT_MS', async () => {
    const started = Date.now();
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/pdf/stalled.pdf'), output_format: 'markdown' });
    expect(response.status).toBe(504);
    const error = await errorOf(response);
    expect(error.code).toBe('target_timeout');
    expect(error.message).toBe('The PDF did not arrive within 3000 ms.');
    expect(Date.now() - started).toBeLessThan(3000 + 8000);
  });

  it('serves the next request normally after target failures', async () => {
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/pages/script-text.html'), wait_event: 'load' });
    expect(response.status).toBe(200);
  });
});

describe('refusals before any browser work', () => {
  it.each([
    ['no token', { token: null }, 401, 'unauthorized'],
    ['a wrong token', { token: 'wrong' }, 401, 'unauthorized'],
  ])('answers %s with 401 and a Bearer challenge', async (_name, init, status, code) => {
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/') }, init);
    expect(response.status).toBe(status);
    expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer/);
    expect((await errorOf(response)).code).toBe(code);
  });

  it('answers 400 invalid_request with every failing field', async () => {
    const response = await ctx.worker.fetchPage({ url: 'nope', wait_event: 'idle', outputFormat: 'markdown' });
    expect(response.status).toBe(400);
    const error = (await errorOf(response)) as { code: string; details?: { field: string }[] };
    expect(error.code).toBe('invalid_request');
    expect(error.details?.map((d) => d.field).sort()).toEqual(['outputFormat', 'url', 'wait_event']);
  });

  it('answers 400 malformed_json for a body that is not JSON', async () => {
    const response = await ctx.worker.fetchPage('{"url":');
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('malformed_json');
  });

  it('answers 415 for a non-JSON Content-Type', async () => {
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/') }, { headers: { 'Content-Type': 'text/plain' } });
    expect(response.status).toBe(415);
    expect((await errorOf(response)).code).toBe('unsupported_media_type');
  });

  it('answers 404 for an unknown path and 405 with Allow for a wrong method', async () => {
    const notFound = await fetch(`${ctx.worker.origin}/nope`);
    expect(notFound.status).toBe(404);
    expect((await errorOf(notFound)).code).toBe('not_found');
    const wrongMethod = await fetch(`${ctx.worker.origin}/api/fetch`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('Allow')).toBe('POST');
    expect((await errorOf(wrongMethod)).code).toBe('method_not_allowed');
  });
});

/** Sends requests one after another over a single kept-alive connection. */
function sequentialOnOneConnection(origin: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(origin);
  const send = (headers: Record<string, string>, chunks: Buffer[]) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ agent, hostname, port, path: '/api/fetch', method: 'POST', headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  return { send, close: () => agent.destroy() };
}

describe('early answers keep the connection usable', () => {
  const json = { 'Content-Type': 'application/json', Authorization: `Bearer ${TEST_TOKEN}` };
  const bigChunks = Array.from({ length: 20 }, () => Buffer.alloc(8192, 'x'));

  it.each([
    ['413 for a chunked body over 64 KiB', json, bigChunks, 413],
    ['415 for a chunked body of the wrong type', { ...json, 'Content-Type': 'text/plain' }, bigChunks, 415],
    ['401 for a chunked body with a wrong token', { ...json, Authorization: 'Bearer wrong' }, bigChunks, 401],
  ])('answers %s and then serves the next request', async (_name, headers, chunks, status) => {
    const connection = sequentialOnOneConnection(ctx.worker.origin);
    try {
      const first = await connection.send(headers, chunks);
      expect(first.status).toBe(status);
      const second = await connection.send(json, [Buffer.from(JSON.stringify({ url: 'not-a-url' }))]);
      expect(second.status).toBe(400);
      expect(JSON.parse(second.body).error.code).toBe('invalid_request');
    } finally {
      connection.close();
    }
  });
});
