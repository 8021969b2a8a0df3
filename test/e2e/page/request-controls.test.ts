// Request controls (docs/api.md "Request controls"): extra headers reach the target's own origin and
// no other, User-Agent and Accept-Language are what the page's scripts see, cookies are set before
// the page loads (http_only hidden from scripts), a mobile device is what the page's media queries,
// user agent and window see, a viewport sets the window's size; bad forms are refused before the
// target is loaded, values never leak, and a request with headers or cookies never meets the store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

// `*.visit.example` is the fixture server too, so that cookies can be set for a parent domain.
const ctx = useWorker({ chromiumFlags: ['--host-resolver-rules=MAP *.visit.example 127.0.0.1, MAP visit.example 127.0.0.1'] });
/** Another origin (another port of 127.0.0.1) the probe page asks for assets. */
let other: FixtureServer;
beforeAll(async () => {
  other = await startFixtureServer();
});
afterAll(async () => {
  await other?.close();
});

const SECRET = 'Bearer e2e-visit-secret-5d81';
const COOKIE_SECRET = 'e2e-cookie-secret-77b2';

const probeUrl = (query = '') => ctx.fixtures.url(`/visit/probe?id=${Math.random().toString(36).slice(2)}${query}`);

async function probe(fields: object, url = probeUrl(`&other=${encodeURIComponent(other.origin)}`)) {
  const response = await ctx.worker.fetchPage({ url, wait_event: 'networkIdle', ...fields });
  expect(response.status).toBe(200);
  const { data } = (await response.json()) as { data: string };
  const shown = (id: string) => new RegExp(`<span id="${id}">([^<]*)</span>`).exec(data)?.[1];
  return { response, data, shown, url };
}

/**
 * The X-Cache of a successful fetch of `body`, once the answer is read and the store had a moment
 * for its write (off the answer's path).
 */
async function xCache(body: object): Promise<string | null> {
  const response = await ctx.worker.fetchPage(body);
  expect(response.status).toBe(200);
  await response.text();
  await new Promise((resolve) => setTimeout(resolve, 400));
  return response.headers.get('X-Cache');
}

/** The recorded requests of `server` whose path starts with `prefix`, with their headers. */
const requestsOf = (server: FixtureServer, needle: string) => server.requests.filter((request) => request.path.includes(needle));

describe('headers', () => {
  it("reach the target's own origin, never another one", async () => {
    const id = 'headers-origin';
    const url = probeUrl(`&other=${encodeURIComponent(other.origin)}&case=${id}`);
    await probe({ headers: { Authorization: SECRET, 'X-Visit': 'yes' } }, url);
    const own = requestsOf(ctx.fixtures, `case=${id}`).concat(requestsOf(ctx.fixtures, 'from=own-'));
    expect(own.map((r) => r.path).some((p) => p.includes('from=own-script'))).toBe(true);
    expect(own.map((r) => r.path).some((p) => p.includes('from=own-fetch'))).toBe(true);
    for (const request of own) {
      expect(request.headers.authorization).toBe(SECRET);
      expect(request.headers['x-visit']).toBe('yes');
    }
    const elsewhere = requestsOf(other, '/visit/asset.js');
    expect(elsewhere.map((r) => r.path).sort()).toEqual(['/visit/asset.js?from=other-fetch', '/visit/asset.js?from=other-script']);
    for (const request of elsewhere) {
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers['x-visit']).toBeUndefined();
    }
  });

  it('set User-Agent and Accept-Language for the page and its scripts, and only for its own origin', async () => {
    const id = 'identity';
    const url = probeUrl(`&other=${encodeURIComponent(other.origin)}&case=${id}`);
    const { shown } = await probe({ headers: { 'User-Agent': 'VisitBot/1.0 (e2e)', 'Accept-Language': 'de-CH,de;q=0.8' } }, url);
    expect(shown('ua')).toBe('VisitBot/1.0 (e2e)');
    expect(shown('server-ua')).toBe('VisitBot/1.0 (e2e)');
    expect(shown('languages')).toBe('de-CH,de');
    const [main] = requestsOf(ctx.fixtures, `case=${id}`);
    expect(main?.headers['accept-language']).toBe('de-CH,de;q=0.8');
    const before = other.requests.length;
    await probe({ headers: { 'User-Agent': 'VisitBot/1.0 (e2e)', 'Accept-Language': 'de-CH,de;q=0.8' } });
    const elsewhere = other.requests.slice(before);
    expect(elsewhere.length).toBeGreaterThan(0);
    for (const request of elsewhere) {
      expect(request.headers['user-agent']).toMatch(/Chrome\//);
      expect(request.headers['user-agent']).not.toContain('VisitBot');
      expect(request.headers['accept-language']).not.toBe('de-CH,de;q=0.8');
    }
  });

  it('follow the page to another origin of the same site it is redirected to (another port of the same address)', async () => {
    const target = `${other.origin}/visit/probe?case=same-site-redirect`;
    const url = ctx.fixtures.url(`/redirect-to?url=${encodeURIComponent(target)}`);
    const response = await ctx.worker.fetchPage({ url, wait_event: 'networkIdle', headers: { Authorization: SECRET } });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Final-Url')).toBe(target);
    const landed = other.requests.filter((request) => /case=same-site-redirect|from=own-/.test(request.path));
    expect(landed.map((request) => request.path)).toContain('/visit/probe?case=same-site-redirect');
    for (const request of landed) expect(request.headers.authorization).toBe(SECRET);
  });

  it('do not follow the page to another site it is redirected to', async () => {
    const port = new URL(ctx.fixtures.origin).port;
    const target = `http://localhost:${port}/visit/probe?case=cross-site-redirect`;
    const url = ctx.fixtures.url(`/redirect-to?url=${encodeURIComponent(target)}&case=redirect-start`);
    const response = await ctx.worker.fetchPage({ url, wait_event: 'load', headers: { Authorization: SECRET } });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Final-Url')).toBe(target);
    const [start] = requestsOf(ctx.fixtures, 'case=redirect-start');
    expect(start?.headers.authorization).toBe(SECRET);
    const [landed] = requestsOf(ctx.fixtures, 'case=cross-site-redirect');
    expect(landed).toBeDefined();
    expect(landed?.headers.authorization).toBeUndefined();
  });
});

describe('cookies', () => {
  it('are seen by the server and by document.cookie, an http_only one by the server alone', async () => {
    const { shown } = await probe({
      cookies: [
        { name: 'session', value: COOKIE_SECRET, http_only: true },
        { name: 'theme', value: 'dark', domain: '127.0.0.1', path: '/visit' },
        { name: 'elsewhere', value: 'no', path: '/other-path' },
      ],
    });
    expect(shown('server-cookie')?.split('; ').sort()).toEqual([`session=${COOKIE_SECRET}`, 'theme=dark']);
    expect(shown('cookies')).toBe('theme=dark');
  });

  it('for a parent domain reach its subdomains; a host-only one only its host', async () => {
    const port = new URL(ctx.fixtures.origin).port;
    const cookies = [
      { name: 'site', value: 'wide', domain: 'visit.example' },
      { name: 'host', value: 'only' },
    ];
    const www = await probe(
      { cookies },
      `http://www.visit.example:${port}/visit/probe?other=${encodeURIComponent(`http://shop.visit.example:${port}`)}&case=parent-domain`,
    );
    expect(www.shown('server-cookie')?.split('; ').sort()).toEqual(['host=only', 'site=wide']);
    const [shop] = ctx.fixtures.requests.filter((request) => request.headers.host === `shop.visit.example:${port}`);
    expect(shop?.headers.cookie).toBe('site=wide');
  });

  it('never outlive their request', async () => {
    await probe({ cookies: [{ name: 'session', value: COOKIE_SECRET }] });
    const { shown } = await probe({});
    expect(shown('server-cookie')).toBe('(none)');
    expect(shown('cookies')).toBe('(none)');
  });
});

describe('device and viewport', () => {
  it('desktop is the browser as it is: a fine pointer, no touch, a desktop user agent', async () => {
    const { shown } = await probe({});
    expect(shown('coarse')).toBe('false');
    expect(shown('touch')).toBe('0');
    expect(shown('ua')).not.toContain('Mobile');
    expect(shown('size')).toBe('800x600');
  });

  it("mobile is a phone to the page's media queries, user agent and window", async () => {
    const { shown } = await probe({ device: 'mobile' });
    expect(shown('coarse')).toBe('true');
    expect(shown('mobile-width')).toBe('true');
    expect(shown('size')).toBe('390x844');
    expect(shown('dpr')).toBe('3');
    expect(Number(shown('touch'))).toBeGreaterThan(0);
    expect(shown('ua')).toMatch(/Android.*Mobile Safari/);
    expect(shown('server-ua')).toMatch(/Android.*Mobile Safari/);
  });

  it('viewport sets the window of either device', async () => {
    expect((await probe({ viewport: { width: 1280, height: 720 } })).shown('size')).toBe('1280x720');
    const phone = await probe({ device: 'mobile', viewport: { width: 412, height: 915 } });
    expect(phone.shown('size')).toBe('412x915');
    expect(phone.shown('coarse')).toBe('true');
  });

  it('are part of the cache key', async () => {
    const url = probeUrl();
    expect(await xCache({ url, device: 'mobile', max_age: 600 })).toBe('MISS');
    expect(await xCache({ url, device: 'mobile', max_age: 600 })).toBe('HIT');
    expect(await xCache({ url, max_age: 600 })).toBe('MISS');
    expect(await xCache({ url, viewport: { width: 1280, height: 720 }, max_age: 600 })).toBe('MISS');
  });
});

describe('personal requests and the store', () => {
  it.each([
    ['headers', { headers: { Authorization: SECRET } }],
    ['cookies', { cookies: [{ name: 'session', value: COOKIE_SECRET }] }],
  ])('with %s are never stored nor answered from the store', async (_name, fields) => {
    const url = probeUrl();
    for (const maxAge of [600, 600, 0]) expect(await xCache({ url, wait_event: 'load', max_age: maxAge, ...fields })).toBe('BYPASS');
    // Nothing was stored for the same page without them either.
    expect(await xCache({ url, wait_event: 'load', max_age: 600 })).toBe('MISS');
  });
});

describe('bad forms', () => {
  it.each([
    ['headers.host', { headers: { Host: SECRET } }],
    ['headers.cookie', { headers: { Cookie: SECRET } }],
    ['headers.proxy-authorization', { headers: { 'Proxy-Authorization': SECRET } }],
    ['headers.authorization', { headers: { Authorization: `${SECRET}\r\nX-Injected: 1` } }],
    ['headers', { headers: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`x-h${i}`, SECRET])) }],
    [
      'cookies[3].domain',
      { cookies: [0, 1, 2, 3].map((i) => ({ name: `c${i}`, value: COOKIE_SECRET, ...(i === 3 ? { domain: 'example.com' } : {}) })) },
    ],
    ['viewport.width', { viewport: { height: 800 } }],
    ['viewport.width', { viewport: { width: 800.5, height: 800 } }],
    ['viewport.width', { viewport: { width: 5000, height: 800 } }],
    ['device', { device: 'tablet' }],
  ])('%s is 400 invalid_request before the target is loaded, without its value', async (field, fields) => {
    const url = probeUrl('&case=refused');
    const before = ctx.fixtures.requests.length;
    const response = await ctx.worker.fetchPage({ url, ...fields });
    expect(response.status).toBe(400);
    const text = await response.text();
    const body = JSON.parse(text) as { error: { code: string; details: { field: string }[] } };
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.details.map((d) => d.field)).toEqual([field]);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(COOKIE_SECRET);
    for (const [name, value] of response.headers) expect(`${name}: ${value}`).not.toContain('secret');
    expect(ctx.fixtures.requests.slice(before)).toEqual([]);
  });

  it('never puts a header or cookie value in the log', () => {
    expect(ctx.worker.logs()).not.toContain(SECRET);
    expect(ctx.worker.logs()).not.toContain(COOKIE_SECRET);
  });
});
