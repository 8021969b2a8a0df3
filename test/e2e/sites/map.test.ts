// POST /api/map against the real Worker and Chromium on the fixture site (support/site-routes.ts):
// robots.txt's Sitemap line, a sitemap index with a plain and a gzipped sitemap, the rendered start
// page's links, robots.txt's PageFetch group, scope, dedup, trap bounds, search, limit, and every bad input.
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';
import { TEST_TOKEN } from '../support/worker.js';

const ctx = useWorker();

interface MapAnswer {
  links: { url: string; title?: string }[];
}

function postMap(body: unknown, token: string | null = TEST_TOKEN): Promise<Response> {
  return fetch(`${ctx.worker.origin}/api/map`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token === null ? {} : { Authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
}

async function map(body: object): Promise<MapAnswer> {
  const response = await postMap(body);
  expect(response.status).toBe(200);
  return (await response.json()) as MapAnswer;
}

const site = (path: string) => ctx.fixtures.url(path);
const urls = (answer: MapAnswer) => answer.links.map((link) => link.url);

describe('POST /api/map', () => {
  it('finds the sitemaps (index, plain, gzipped) and the start page links, in scope and robots-allowed, each once', async () => {
    const answer = await map({ url: site('/site/') });
    expect(urls(answer)).toEqual([
      site('/site/'),
      site('/site/docs/intro'),
      site('/site/docs/guide'),
      site('/site/blog/first'),
      site('/site/blog/second'),
      site('/site/docs/api'),
      site('/site/private/open'),
      site('/site/docs/intro?ref=home'),
    ]);
    // Titles where a sitemap (a news title) or the start page's link text gives one.
    expect(answer.links.find((link) => link.url === site('/site/docs/guide'))?.title).toBe('The guide');
    expect(answer.links.find((link) => link.url === site('/site/docs/api'))?.title).toBe('API reference');
    expect(answer.links.find((link) => link.url === site('/site/docs/intro'))?.title).toBe('Introduction');
    expect(answer.links.find((link) => link.url === site('/site/blog/first'))?.title).toBeUndefined();
    // No page but the start page is loaded.
    const pagePaths = ctx.fixtures.requests
      .map((request) => request.path)
      .filter((path) => path.startsWith('/site/docs') || path.startsWith('/site/blog'));
    expect(pagePaths).toEqual([]);
  });

  it('with sitemap "skip" reads no sitemap', async () => {
    const before = ctx.fixtures.requests.length;
    expect(urls(await map({ url: site('/site/'), sitemap: 'skip' }))).toEqual([
      site('/site/'),
      site('/site/docs/intro'),
      site('/site/docs/api'),
      site('/site/private/open'),
      site('/site/docs/intro?ref=home'),
    ]);
    expect(ctx.fixtures.requests.slice(before).some((request) => request.path.includes('sitemap'))).toBe(false);
  });

  it('with sitemap "only" does not render the start page', async () => {
    const before = ctx.fixtures.requests.length;
    expect(urls(await map({ url: site('/site/'), sitemap: 'only' }))).toEqual([
      site('/site/docs/intro'),
      site('/site/docs/guide'),
      site('/site/blog/first'),
      site('/site/blog/second'),
    ]);
    expect(ctx.fixtures.requests.slice(before).map((request) => request.path)).not.toContain('/site/');
  });

  it('keeps what `search` finds, most words first, and at most `limit`', async () => {
    expect(urls(await map({ url: site('/site/'), search: 'blog second' }))).toEqual([site('/site/blog/second'), site('/site/blog/first')]);
    expect(urls(await map({ url: site('/site/'), search: 'reference' }))).toEqual([site('/site/docs/api')]);
    expect(urls(await map({ url: site('/site/'), limit: 2 }))).toEqual([site('/site/'), site('/site/docs/intro')]);
  });

  it('leaves subdomains out unless asked', async () => {
    const start = `http://localhost:${new URL(ctx.fixtures.origin).port}/site/`;
    const answer = await map({ url: start, sitemap: 'skip' });
    expect(urls(answer)).toContain(`http://localhost:${new URL(ctx.fixtures.origin).port}/site/elsewhere`);
    expect(urls(answer).some((url) => url.includes('sub.localhost'))).toBe(false);
    expect(urls(answer).some((url) => url.includes('127.0.0.1'))).toBe(false);
  });

  it('answers 400 naming each bad field, before the target is loaded', async () => {
    const before = ctx.fixtures.requests.length;
    const cases: [object, string[]][] = [
      [{}, ['url']],
      [{ url: 'ftp://example.com/' }, ['url']],
      [{ url: site('/site/'), limit: 0 }, ['limit']],
      [{ url: site('/site/'), limit: 5001 }, ['limit']],
      [{ url: site('/site/'), limit: 1.5 }, ['limit']],
      [{ url: site('/site/'), include_subdomains: 'yes' }, ['include_subdomains']],
      [{ url: site('/site/'), sitemap: 'all' }, ['sitemap']],
      [{ url: site('/site/'), search: 7 }, ['search']],
      [{ url: site('/site/'), page: {} }, ['page']],
      [{ url: 7, limit: -1, sitemap: 1 }, ['url', 'limit', 'sitemap']],
    ];
    for (const [body, fields] of cases) {
      const response = await postMap(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const json = (await response.json()) as { error: { code: string; details: { field: string }[] } };
      expect(json.error.code).toBe('invalid_request');
      expect(json.error.details.map((detail) => detail.field).sort()).toEqual(fields.sort());
    }
    const malformed = await fetch(`${ctx.worker.origin}/api/map`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TEST_TOKEN}` },
      body: '[1]',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: string } }).error.code).toBe('malformed_json');
    expect(ctx.fixtures.requests.length).toBe(before);
  });

  it('needs a token and POST', async () => {
    expect((await postMap({ url: site('/site/') }, null)).status).toBe(401);
    const get = await fetch(`${ctx.worker.origin}/api/map`, { headers: { Authorization: `Bearer ${TEST_TOKEN}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get('Allow')).toBe('POST');
  });
});
