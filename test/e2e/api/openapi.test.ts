// GET /openapi.json from the running Worker, and the documented statuses checked against it: every
// status and code the document lists is produced by a request in this file (with the headers the
// document promises for it), or by an existing test named in ELSEWHERE, whose title is checked to exist.
import { readFileSync } from 'node:fs';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../src/api/config.js';
import { openApiDocument } from '../../../src/api/openapi.js';
import { closedPort } from '../support/fixture-server.js';
import { useWorker } from '../support/e2e-hooks.js';
import { DEFAULT_VARS, TEST_TOKEN, type WorkerHandle } from '../support/worker.js';

/** A second token, run past its rate limit to see 429 on each site operation. */
const LIMITED_TOKEN = 'e2e-limited-token-7a1e';
// A short navigation timeout keeps the 504 case quick; private targets are allowed so that the
// fixture server on 127.0.0.1 can be fetched.
const ctx = useWorker({ vars: { NAVIGATION_TIMEOUT_MS: '3000', API_TOKENS: `${TEST_TOKEN},${LIMITED_TOKEN}` } });
// The guard as deployed, for 403: refused before any browser work, so this Worker never launches one.
const guarded = useWorker({ vars: { ALLOW_PRIVATE_NETWORK: 'false' } });
// Deployments that fail closed: no API tokens (503), and a PROXIES secret that is not JSON (500).
const unconfigured = useWorker({ vars: { API_TOKENS: '' } });
const misconfigured = useWorker({ vars: { PROXIES: '{not json' } });
// A deployment whose browser launches are all refused (the Chromium wrapper fails to start): 503.
const refused = useWorker({ refuseBrowserLaunch: true });
// The same with a queue time shorter than the pool's first pause between launch attempts (250 ms).
const refusedShortQueue = useWorker({ refuseBrowserLaunch: true, vars: { QUEUE_TIMEOUT_MS: '200' } });

type Json = Record<string, unknown>;
type Documented = { headers: Record<string, unknown>; codes: string[] };

/** Documented status → its headers and error codes ('' for success), read from a served document. */
function documentedStatuses(doc: Json): Map<string, Documented> {
  const paths = doc.paths as Record<string, Record<string, { responses: Record<string, Json> }>>;
  const responses = (doc.components as Json).responses as Record<string, Json>;
  const statuses = new Map<string, Documented>();
  const add = (status: string, response: Json) => {
    const resolved = typeof response.$ref === 'string' ? responses[response.$ref.replace('#/components/responses/', '')]! : response;
    const schema = ((resolved.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as Json | undefined;
    const code = (((schema?.properties as Json | undefined)?.error as Json | undefined)?.properties as Json | undefined)?.code as
      | Json
      | undefined;
    statuses.set(status, {
      headers: (resolved.headers as Record<string, unknown>) ?? {},
      codes: (code?.enum as string[] | undefined) ?? [''],
    });
  };
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations))
      for (const [status, response] of Object.entries(operation.responses)) add(status, response);
  }
  // Error404 hangs on no path (it is what unknown paths answer).
  for (const [name, response] of Object.entries(responses)) add(name.replace('Error', ''), response);
  return statuses;
}

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

const article = () => ctx.fixtures.url('/pages/article.html');

/** Requests in this file, keyed "<status> <code>" ("200" plus the content type for successes). */
const HERE: [string, () => Promise<Response>][] = [
  ['200 application/json', () => ctx.worker.fetchPage({ url: article(), wait_event: 'load' })],
  ['200 text/html', () => ctx.worker.fetchPage({ url: article(), wait_event: 'load', raw: true })],
  ['200 text/plain', () => ctx.worker.fetchPage({ url: article(), wait_event: 'load', raw: true, output_format: 'markdown' })],
  ['400 malformed_json', () => ctx.worker.fetchPage('{"url":')],
  ['400 invalid_request', () => ctx.worker.fetchPage({ url: 'ftp://example.com/', wait_ms: -1 })],
  ['401 unauthorized', () => ctx.worker.fetchPage({ url: article() }, { token: null })],
  ['403 forbidden_target', () => guarded.worker.fetchPage({ url: 'http://127.0.0.1/' })],
  ['404 not_found', () => fetch(`${ctx.worker.origin}/no-such-path`)],
  ['405 method_not_allowed', () => fetch(`${ctx.worker.origin}/api/fetch`, { method: 'PUT' })],
  ['413 payload_too_large', () => ctx.worker.fetchPage(JSON.stringify({ url: `https://example.com/${'a'.repeat(70 * 1024)}` }))],
  ['415 unsupported_media_type', () => ctx.worker.fetchPage({ url: article() }, { headers: { 'Content-Type': 'text/plain' } })],
  ['502 target_unreachable', async () => ctx.worker.fetchPage({ url: `http://127.0.0.1:${await closedPort()}/` })],
  ['502 unsupported_content', () => ctx.worker.fetchPage({ url: ctx.fixtures.url('/file.pdf') })],
  ['504 target_timeout', () => ctx.worker.fetchPage({ url: ctx.fixtures.url('/hang'), wait_ms: 1000 })],
  ['503 not_configured', () => unconfigured.worker.fetchPage({ url: article() })],
  ['500 internal_error', () => misconfigured.worker.fetchPage({ url: article() })],
  ['503 browser_unavailable', () => refused.worker.fetchPage({ url: article() })],
];

/** Statuses this file cannot produce without a Worker of its own, and the existing tests that do. */
const ELSEWHERE: [string, string, string[]][] = [
  [
    '429 rate_limited',
    'test/e2e/api/rate-limit.test.ts',
    ['rate limiting', 'answers 429 rate_limited with Retry-After once a token passes its limit, and only for that token'],
  ],
  [
    '502 content_too_large',
    'test/e2e/read/responses.test.ts',
    ['large pages', 'answers 502 content_too_large for a page over MAX_CONTENT_BYTES'],
  ],
  [
    '502 proxy_error',
    'test/e2e/api/proxies.test.ts',
    ['upstream proxies', 'answers 502 proxy_error when the proxy refuses the connection'],
  ],
];

/** A request to a site endpoint; the test token unless told, JSON unless `body` is a string. */
function site(
  worker: () => WorkerHandle,
  method: string,
  path: string,
  body?: unknown,
  init: { token?: string | null; headers?: Record<string, string> } = {},
): Promise<Response> {
  const token = init.token === undefined ? TEST_TOKEN : init.token;
  return fetch(`${worker().origin}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
      ...init.headers,
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

const here = () => ctx.worker;
const NO_JOB = '/api/jobs/00000000-0000-4000-8000-000000000000';
const BIG_BODY = JSON.stringify({ url: `https://example.com/${'a'.repeat(70 * 1024)}` });
/** One job of this token for the job reads, started on first use. */
let jobPath: Promise<string> | undefined;
const aJob = () => {
  jobPath ??= site(here, 'POST', '/api/batch', { urls: [article()] }).then((response) => response.headers.get('Location')!);
  return jobPath;
};

/** The errors every POST site operation answers as /api/fetch does: auth, method, body and configuration. */
function postErrors(path: string, body: unknown): [string, string, () => Promise<Response>][] {
  const operation = `POST ${path}`;
  return [
    [operation, '401 unauthorized', () => site(here, 'POST', path, body, { token: null })],
    [operation, '405 method_not_allowed', () => site(here, 'GET', path)],
    [operation, '413 payload_too_large', () => site(here, 'POST', path, BIG_BODY)],
    [operation, '415 unsupported_media_type', () => site(here, 'POST', path, '{}', { headers: { 'Content-Type': 'text/plain' } })],
    [operation, '500 internal_error', () => site(() => misconfigured.worker, 'POST', path, body)],
    [operation, '503 not_configured', () => site(() => unconfigured.worker, 'POST', path, body)],
  ];
}

/** Requests to the site operations, each "<status> <code>" ("200"/"202" plus the content type for successes). */
const SITE_HERE: [string, string, () => Promise<Response>][] = [
  ['POST /api/map', '200 application/json', () => site(here, 'POST', '/api/map', { url: article(), sitemap: 'skip' })],
  ['POST /api/map', '400 invalid_request', () => site(here, 'POST', '/api/map', { url: 'ftp://example.com/', limit: 0 })],
  ['POST /api/map', '403 forbidden_target', () => site(() => guarded.worker, 'POST', '/api/map', { url: 'http://127.0.0.1/' })],
  // A host that refuses connections has no robots.txt, which disallows all: the map is then empty, not 502.
  [
    'POST /api/map',
    '502 unsupported_content',
    () => site(here, 'POST', '/api/map', { url: ctx.fixtures.url('/file.pdf'), sitemap: 'skip' }),
  ],
  ['POST /api/map', '504 target_timeout', () => site(here, 'POST', '/api/map', { url: ctx.fixtures.url('/hang'), sitemap: 'skip' })],
  ...postErrors('/api/map', { url: 'https://example.com/' }),

  ['POST /api/crawl', '202 application/json', () => site(here, 'POST', '/api/crawl', { url: article(), limit: 1, sitemap: 'skip' })],
  ['POST /api/crawl', '400 malformed_json', () => site(here, 'POST', '/api/crawl', '{"url":')],
  ['POST /api/crawl', '403 forbidden_target', () => site(() => guarded.worker, 'POST', '/api/crawl', { url: 'http://127.0.0.1/' })],
  ...postErrors('/api/crawl', { url: 'https://example.com/' }),

  ['POST /api/batch', '202 application/json', () => site(here, 'POST', '/api/batch', { urls: [article()] })],
  ['POST /api/batch', '400 invalid_request', () => site(here, 'POST', '/api/batch', { urls: [], page: { raw: true } })],
  ...postErrors('/api/batch', { urls: ['https://example.com/'] }),

  ['GET /api/jobs/{id}', '200 application/json', async () => site(here, 'GET', await aJob())],
  ['GET /api/jobs/{id}', '400 invalid_request', async () => site(here, 'GET', `${await aJob()}?cursor=abc`)],
  ['GET /api/jobs/{id}', '401 unauthorized', async () => site(here, 'GET', await aJob(), undefined, { token: null })],
  ['GET /api/jobs/{id}', '404 not_found', () => site(here, 'GET', NO_JOB)],
  ['GET /api/jobs/{id}', '405 method_not_allowed', () => site(here, 'PUT', NO_JOB)],
  ['GET /api/jobs/{id}', '500 internal_error', () => site(() => misconfigured.worker, 'GET', NO_JOB)],
  ['GET /api/jobs/{id}', '503 not_configured', () => site(() => unconfigured.worker, 'GET', NO_JOB)],

  ['DELETE /api/jobs/{id}', '200 application/json', async () => site(here, 'DELETE', await aJob())],
  ['DELETE /api/jobs/{id}', '401 unauthorized', async () => site(here, 'DELETE', await aJob(), undefined, { token: null })],
  ['DELETE /api/jobs/{id}', '404 not_found', () => site(here, 'DELETE', NO_JOB)],
  ['DELETE /api/jobs/{id}', '405 method_not_allowed', () => site(here, 'POST', NO_JOB)],
  ['DELETE /api/jobs/{id}', '500 internal_error', () => site(() => misconfigured.worker, 'DELETE', NO_JOB)],
  ['DELETE /api/jobs/{id}', '503 not_configured', () => site(() => unconfigured.worker, 'DELETE', NO_JOB)],
];

/** The same site operations by a token past its rate limit (429 rate_limited). */
const SITE_RATE_LIMITED: [string, () => Promise<Response>][] = [
  ['POST /api/map', () => site(here, 'POST', '/api/map', { url: article() }, { token: LIMITED_TOKEN })],
  ['POST /api/crawl', () => site(here, 'POST', '/api/crawl', { url: article() }, { token: LIMITED_TOKEN })],
  ['POST /api/batch', () => site(here, 'POST', '/api/batch', { urls: [article()] }, { token: LIMITED_TOKEN })],
  ['GET /api/jobs/{id}', () => site(here, 'GET', NO_JOB, undefined, { token: LIMITED_TOKEN })],
  ['DELETE /api/jobs/{id}', () => site(here, 'DELETE', NO_JOB, undefined, { token: LIMITED_TOKEN })],
];

type Operation = { responses: Record<string, Json> };
const siteOperation = (doc: Json, key: string): Operation => {
  const [method, path] = key.split(' ') as [string, string];
  return ((doc.paths as Json)[path] as Record<string, Operation>)[method.toLowerCase()]!;
};
/** The status's response as documented for this operation, its shared error response resolved. */
function documentedResponse(doc: Json, key: string, status: string): Json | undefined {
  const response = siteOperation(doc, key).responses[status];
  if (response === undefined || typeof response.$ref !== 'string') return response;
  return ((doc.components as Json).responses as Record<string, Json>)[response.$ref.replace('#/components/responses/', '')];
}

describe('GET /openapi.json on the running Worker', () => {
  it('answers without a token with the document built from this configuration, valid OpenAPI 3.1', async () => {
    const response = await fetch(`${ctx.worker.origin}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    const served = (await response.json()) as Json;
    expect(served).toEqual(JSON.parse(JSON.stringify(openApiDocument(readConfig(DEFAULT_VARS)))));
    expect(await validate(served as never)).toMatchObject({ valid: true });
  });
});

describe('every documented status is real', () => {
  it('has each documented status and code either produced here or covered by a named test', async () => {
    const served = (await (await fetch(`${ctx.worker.origin}/openapi.json`)).json()) as Json;
    const documented = new Set<string>();
    for (const [status, { codes }] of documentedStatuses(served))
      for (const code of codes) documented.add(code === '' ? status : `${status} ${code}`);
    const covered = new Set([
      ...HERE.map(([key]) => key.replace(/^200 .*/, '200')),
      ...SITE_HERE.map(([, key]) => key.replace(/^20[02] .*/, (success) => success.slice(0, 3))),
      ...ELSEWHERE.map(([key]) => key),
    ]);
    expect([...covered].sort()).toEqual([...documented].sort());
  });

  it.each(ELSEWHERE)('%s is covered by %s › %j', (_key, file, titles) => {
    const source = readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
    for (const title of titles) expect(source).toContain(`'${title}'`);
  });

  it.each(HERE)('%s is produced by a request here, with the documented headers', async (key, send) => {
    const [status, detail] = key.split(' ') as [string, string];
    const documented = documentedStatuses(openApiDocument(readConfig(DEFAULT_VARS)) as unknown as Json).get(status)!;
    const response = await send();
    expect(response.status).toBe(Number(status));
    // Every header the document marks required for this status is there.
    for (const [header, spec] of Object.entries(documented.headers)) {
      if ((spec as { required?: boolean }).required) expect(response.headers.get(header), header).toBeTruthy();
    }
    if (status === '200') {
      expect(response.headers.get('Content-Type')?.split(';')[0]).toBe(detail);
      expect(await response.text()).toContain('An article');
    } else {
      expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
      expect(await errorCode(response)).toBe(detail);
    }
  });
});

describe('browser launches refused', () => {
  it('answers 503 browser_unavailable with Retry-After after its bounded retries, and launches nothing', async () => {
    const started = Date.now();
    const attemptsBefore = refused.worker.refusedLaunchCount();
    const response = await refused.worker.fetchPage({ url: article() });
    expect(response.status).toBe(503);
    expect(response.headers.get('Retry-After')).toMatch(/^[1-9][0-9]*$/);
    expect(await errorCode(response)).toBe('browser_unavailable');
    // Three attempts, 250 ms and 1 s apart: refused quickly, not after a timeout.
    expect(refused.worker.refusedLaunchCount() - attemptsBefore).toBe(3);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(refused.worker.liveBrowserPids()).toEqual([]);
  });

  it('does not retry a refused launch past the queue time the request has left', async () => {
    const attemptsBefore = refusedShortQueue.worker.refusedLaunchCount();
    const response = await refusedShortQueue.worker.fetchPage({ url: article() });
    expect(response.status).toBe(503);
    expect(response.headers.get('Retry-After')).toMatch(/^[1-9][0-9]*$/);
    expect(await errorCode(response)).toBe('browser_unavailable');
    expect(refusedShortQueue.worker.refusedLaunchCount() - attemptsBefore).toBe(1);
    expect(refusedShortQueue.worker.liveBrowserPids()).toEqual([]);
  });
});

describe('every documented status of the site operations is real', () => {
  const served = () => openApiDocument(readConfig(DEFAULT_VARS)) as unknown as Json;

  it.each([...new Set(SITE_HERE.map(([operation]) => operation))])('%s: each documented status is produced here', (operation) => {
    const documented = Object.keys(siteOperation(served(), operation).responses).sort();
    const produced = [
      ...SITE_HERE.filter(([key]) => key === operation).map(([, key]) => key.split(' ')[0]!),
      ...SITE_RATE_LIMITED.filter(([key]) => key === operation).map(() => '429'),
    ];
    expect([...new Set(produced)].sort()).toEqual(documented);
  });

  it.each(SITE_HERE)('%s %s, with the documented headers and a documented code', { timeout: 60_000 }, async (operation, key, send) => {
    const [status, detail] = key.split(' ') as [string, string];
    const documented = documentedResponse(served(), operation, status)!;
    const response = await send();
    expect(response.status, await response.clone().text()).toBe(Number(status));
    for (const [header, spec] of Object.entries((documented.headers ?? {}) as Record<string, { required?: boolean }>)) {
      if (spec.required) expect(response.headers.get(header), header).toBeTruthy();
    }
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    const body = (await response.json()) as Json;
    if (status.startsWith('2')) return;
    const schema = (documented.content as Json)['application/json'] as Json;
    expect(((((schema.schema as Json).properties as Json).error as Json).properties as Json).code).toMatchObject({
      enum: expect.arrayContaining([detail]),
    });
    expect((body.error as Json).code).toBe(detail);
  });

  it('answers 429 rate_limited with Retry-After on each site operation once the token passes its limit', async () => {
    for (let sent = 0; sent < 700; sent += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, () => ctx.worker.fetchPage({ url: 'not-a-url' }, { token: LIMITED_TOKEN })),
      );
      for (const response of batch) await response.body?.cancel();
      if (batch.some((response) => response.status === 429)) break;
    }
    for (const [operation, send] of SITE_RATE_LIMITED) {
      const response = await send();
      expect(response.status, operation).toBe(429);
      expect(response.headers.get('Retry-After'), operation).toMatch(/^[0-9]+$/);
      expect(await errorCode(response)).toBe('rate_limited');
    }
  });
});
