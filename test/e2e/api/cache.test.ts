// max_age against the real Worker and wrangler dev's local Workers KV (docs/api.md "Cache"): a stored
// render answers with X-Cache: HIT and Age without a browser, errors are never stored, the key holds
// what changes the content and nothing else, and identical requests in flight share one render.
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';

const SECOND_TOKEN = 'e2e-second-token-7b1d';
const ctx = useWorker({ vars: { API_TOKENS: `e2e-test-token-3f9c2a,${SECOND_TOKEN}` } });

type Answer = { data: string; status: number; headers: Record<string, string> };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How often the fixture server saw `path` (with its query). */
const seen = (path: string) => ctx.fixtures.requests.filter((request) => request.path === path).length;
let unique = 0;
/** A page no other test asks for, and the path the fixture server sees for it. */
function freshPage(): { url: string; path: string } {
  const path = `/echo?id=cache-${++unique}`;
  return { url: ctx.fixtures.url(path), path };
}

/** Asks with max_age until a HIT (a render is stored once its answer is sent); fails after 1 s. */
async function untilHit(body: Record<string, unknown>): Promise<Response> {
  const deadline = Date.now() + 1000;
  for (;;) {
    const response = await ctx.worker.fetchPage({ max_age: 60, ...body });
    if (response.headers.get('X-Cache') === 'HIT' || Date.now() > deadline) return response;
    await response.arrayBuffer();
    await sleep(50);
  }
}

/** The URL of a fresh page rendered, stored (seen as a HIT) and then left to age two seconds. */
async function storedTwoSecondsAgo(): Promise<string> {
  const { url } = freshPage();
  await (await ctx.worker.fetchPage({ url })).arrayBuffer();
  expect((await untilHit({ url })).headers.get('X-Cache')).toBe('HIT');
  await sleep(2100);
  return url;
}

describe('max_age', () => {
  it('renders (MISS), then answers the same request from the store (HIT, Age) without rendering again', async () => {
    const { url, path } = freshPage();
    const first = await ctx.worker.fetchPage({ url, max_age: 60 });
    expect(first.status).toBe(200);
    expect(first.headers.get('X-Cache')).toBe('MISS');
    expect(first.headers.get('Age')).toBeNull();
    const rendered = (await first.json()) as Answer;
    expect(seen(path)).toBe(1);

    await sleep(300); // the write runs after the answer (waitUntil)
    const second = await ctx.worker.fetchPage({ url, max_age: 60 });
    expect(second.headers.get('X-Cache')).toBe('HIT');
    expect(second.headers.get('Age')).toBe('0');
    expect(await second.json()).toEqual(rendered);
    for (const header of ['X-Final-Url', 'X-Wait-Result', 'X-Page-Status'])
      expect(second.headers.get(header)).toBe(first.headers.get(header));
    // No browser phase: the answer came from the store alone.
    expect(second.headers.get('Server-Timing')).toMatch(/^cache;dur=[\d.]+$/);
    expect(seen(path)).toBe(1);
  });

  it('renders every time without max_age (MISS), even with a stored render', async () => {
    const { url, path } = freshPage();
    await (await ctx.worker.fetchPage({ url })).arrayBuffer();
    expect((await untilHit({ url })).headers.get('X-Cache')).toBe('HIT');
    const before = seen(path);
    for (const body of [{ url }, { url, max_age: 0 }]) {
      const response = await ctx.worker.fetchPage(body);
      expect(response.headers.get('X-Cache')).toBe('MISS');
      await response.arrayBuffer();
    }
    expect(seen(path)).toBe(before + 2);
  });

  it('serves a stored render in the shape this request asks for (raw)', async () => {
    const { url } = freshPage();
    const json = (await (await ctx.worker.fetchPage({ url, output_format: 'markdown' })).json()) as Answer;
    const hit = await untilHit({ url, output_format: 'markdown', raw: true });
    expect(hit.headers.get('X-Cache')).toBe('HIT');
    expect(hit.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
    expect(hit.headers.get('X-Page-Status')).toBe('200');
    expect(await hit.text()).toBe(json.data);
  });

  it('keys on the normalized URL and the content-changing fields only', async () => {
    const { url, path } = freshPage();
    const stored = (await (await ctx.worker.fetchPage({ url: `${url}&a=1&b=2` })).json()) as Answer;
    expect((await untilHit({ url: `${url}&a=1&b=2` })).headers.get('X-Cache')).toBe('HIT');
    const ask = async (body: Record<string, unknown>) => {
      const response = await ctx.worker.fetchPage({ max_age: 60, ...body });
      return { cache: response.headers.get('X-Cache'), body: (await response.json()) as Answer };
    };
    // Same key: the fragment never reaches the server, wait_ms 0 is the default 5000.
    expect(await ask({ url: `${url}&a=1&b=2#part` })).toEqual({ cache: 'HIT', body: stored });
    expect(await ask({ url: `${url}&a=1&b=2`, wait_ms: 5000 })).toMatchObject({ cache: 'HIT' });
    const hits = seen(`${path}&a=1&b=2`);
    // Other keys: query order, format, waiting, main content, metadata.
    for (const body of [
      { url: `${url}&b=2&a=1` },
      { url: `${url}&a=1&b=2`, output_format: 'markdown' },
      { url: `${url}&a=1&b=2`, wait_event: 'load' },
      { url: `${url}&a=1&b=2`, only_main_content: true },
      { url: `${url}&a=1&b=2`, include_metadata: true },
    ]) {
      expect((await ask(body)).cache, JSON.stringify(body)).toBe('MISS');
    }
    expect(seen(`${path}&a=1&b=2`)).toBe(hits + 4);
  });

  it('holds an entry only as long as max_age says (max_age: 1)', async () => {
    const { url } = freshPage();
    await (await ctx.worker.fetchPage({ url })).arrayBuffer();
    expect((await untilHit({ url, max_age: 1 })).headers.get('X-Cache')).toBe('HIT');
    await sleep(2100);
    const stale = await ctx.worker.fetchPage({ url, max_age: 1 });
    expect(stale.headers.get('X-Cache')).toBe('MISS');
    await stale.arrayBuffer();
  });

  it('reports the age of the stored render in whole seconds', async () => {
    const url = await storedTwoSecondsAgo();
    const hit = await ctx.worker.fetchPage({ url, max_age: 60 });
    expect(hit.headers.get('X-Cache')).toBe('HIT');
    expect(Number(hit.headers.get('Age'))).toBeGreaterThanOrEqual(2);
    expect(Number(hit.headers.get('Age'))).toBeLessThanOrEqual(3);
  });

  it('replaces a stored render with a newer render of the same key', async () => {
    const url = await storedTwoSecondsAgo();
    const older = await ctx.worker.fetchPage({ url, max_age: 60 });
    expect(Number(older.headers.get('Age'))).toBeGreaterThanOrEqual(2);
    await older.arrayBuffer();
    await (await ctx.worker.fetchPage({ url })).arrayBuffer(); // max_age 0: renders, and stores that render
    await sleep(300);
    const hit = await ctx.worker.fetchPage({ url, max_age: 60 });
    expect(hit.headers.get('X-Cache')).toBe('HIT');
    expect(hit.headers.get('Age')).toBe('0');
    await hit.arrayBuffer();
  });

  it('never stores an error: the next request renders and succeeds', async () => {
    const path = `/fails-once?id=cache-${++unique}`;
    const url = ctx.fixtures.url(path);
    const failed = await ctx.worker.fetchPage({ url, max_age: 60 });
    expect(failed.status).toBe(502);
    expect(((await failed.json()) as { error: { code: string } }).error.code).toBe('unsupported_content');
    await sleep(300);
    const retried = await ctx.worker.fetchPage({ url, max_age: 60 });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('X-Cache')).toBe('MISS');
    expect(((await retried.json()) as Answer).data).toContain('Second try');
    expect(seen(path)).toBe(2);
  });

  it("stores a target's 404 as the success it is", async () => {
    const path = `/status/404?v=cache-${++unique}`;
    const url = ctx.fixtures.url(path);
    const first = await ctx.worker.fetchPage({ url, max_age: 60 });
    expect(first.headers.get('X-Page-Status')).toBe('404');
    const rendered = (await first.json()) as Answer;
    const hit = await untilHit({ url });
    expect(hit.headers.get('X-Cache')).toBe('HIT');
    expect(hit.headers.get('X-Page-Status')).toBe('404');
    expect(await hit.json()).toEqual(rendered);
    expect(rendered.status).toBe(404);
  });

  it('shares a stored render between tokens', async () => {
    const { url, path } = freshPage();
    await (await ctx.worker.fetchPage({ url })).arrayBuffer();
    await sleep(300);
    const other = await ctx.worker.fetchPage({ url, max_age: 60 }, { token: SECOND_TOKEN });
    expect(other.status).toBe(200);
    expect(other.headers.get('X-Cache')).toBe('HIT');
    await other.arrayBuffer();
    expect(seen(path)).toBe(1);
  });

  it.each([
    [-1, 'must be at least 0'],
    [1.5, 'must be an integer'],
    ['60', 'must be an integer'],
    [86401, 'must be at most 86400'],
  ])('answers 400 invalid_request for max_age %j', async (maxAge, message) => {
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/pages/article.html'), max_age: maxAge });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: 'invalid_request', message: 'The request has invalid fields.', details: [{ field: 'max_age', message }] },
    });
  });

  it('gives 5 identical concurrent requests one render', async () => {
    const path = `/echo?id=cache-${++unique}&ms=1500`;
    const url = ctx.fixtures.url(path);
    const responses = await Promise.all(Array.from({ length: 5 }, () => ctx.worker.fetchPage({ url, max_age: 60 })));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(responses.map((response) => response.headers.get('X-Cache'))).toEqual(['MISS', 'MISS', 'MISS', 'MISS', 'MISS']);
    const bodies = (await Promise.all(responses.map((response) => response.json()))) as Answer[];
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    expect(bodies[0]!.data).toContain(`request-cache-${unique}`);
    expect(seen(path)).toBe(1);
  });
});
