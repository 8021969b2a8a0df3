// The store key (src/api/cache/cache-key.ts): URL normalization as properties over generated URLs,
// and which request fields make a different key.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cacheKey, keyFields, normalizeUrl } from '../../../src/api/cache/cache-key.js';
import { readConfig } from '../../../src/api/config.js';
import { type FetchRequest, parseFetchRequest, requestOptions } from '../../../src/api/fetch-request.js';

const RUNS = { numRuns: 300, seed: 0x51f15e };

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/);
const host = fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => [...labels, 'example'].join('.'));
const segment = fc.stringMatching(/^[A-Za-z0-9._~-]{1,8}$/);
const path = fc.array(segment, { maxLength: 4 }).map((segments) => `/${segments.join('/')}`);
const param = fc.tuple(fc.stringMatching(/^[a-z]{1,5}$/), fc.stringMatching(/^[A-Za-z0-9]{0,5}$/)).map(([k, v]) => `${k}=${v}`);
const query = fc.array(param, { maxLength: 4 }).map((params) => (params.length === 0 ? '' : `?${params.join('&')}`));
const fragment = fc.stringMatching(/^[A-Za-z0-9/?=&-]{0,10}$/).map((text) => `#${text}`);
const parts = fc.record({
  scheme: fc.constantFrom('http', 'https'),
  host,
  port: fc.option(fc.integer({ min: 1, max: 65535 })),
  path,
  query,
});

type Parts = { scheme: string; host: string; port: number | null; path: string; query: string };
const urlOf = ({ scheme, host, port, path, query }: Parts, fragmentText = '') =>
  `${scheme}://${host}${port === null ? '' : `:${port}`}${path}${query}${fragmentText}`;

/** Upper-cases a random choice of letters. */
const mixedCase = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((flips) => [...text].map((char, i) => (flips[i] ? char.toUpperCase() : char)).join(''));

describe('normalizeUrl', () => {
  it('is idempotent', () => {
    fc.assert(
      fc.property(parts, fragment, (p, f) => normalizeUrl(normalizeUrl(urlOf(p, f))) === normalizeUrl(urlOf(p, f))),
      RUNS,
    );
  });

  it('ignores the case of scheme and host', () => {
    fc.assert(
      fc.property(
        parts.chain((p) => fc.tuple(fc.constant(p), mixedCase(p.scheme), mixedCase(p.host))),
        ([p, scheme, hostName]) => {
          expect(normalizeUrl(urlOf({ ...p, scheme, host: hostName }))).toBe(normalizeUrl(urlOf(p)));
        },
      ),
      RUNS,
    );
  });

  it("drops the scheme's default port", () => {
    fc.assert(
      fc.property(parts, (p) => {
        const defaultPort = p.scheme === 'http' ? 80 : 443;
        expect(normalizeUrl(urlOf({ ...p, port: defaultPort }))).toBe(normalizeUrl(urlOf({ ...p, port: null })));
      }),
      RUNS,
    );
  });

  it('drops the fragment', () => {
    fc.assert(
      fc.property(parts, fragment, (p, f) => {
        expect(normalizeUrl(urlOf(p, f))).toBe(normalizeUrl(urlOf(p)));
        expect(normalizeUrl(urlOf(p, f))).not.toContain('#');
      }),
      RUNS,
    );
  });

  it('keeps the order of the query, and the case of path and query', () => {
    fc.assert(
      fc.property(parts, fc.uniqueArray(param, { minLength: 2, maxLength: 4 }), (p, params) => {
        const reversed = [...params].reverse();
        fc.pre(params.join('&') !== reversed.join('&'));
        expect(normalizeUrl(urlOf({ ...p, query: `?${params.join('&')}` }))).not.toBe(
          normalizeUrl(urlOf({ ...p, query: `?${reversed.join('&')}` })),
        );
      }),
      RUNS,
    );
    expect(normalizeUrl('https://example.com/A?q=B')).not.toBe(normalizeUrl('https://example.com/a?q=b'));
  });
});

describe('cacheKey', () => {
  const config = readConfig({});
  const request = (fields: Record<string, unknown>): FetchRequest => parseFetchRequest({ url: 'https://example.com/a', ...fields }, config);
  const base = request({});

  it('is a short, fixed-length key whatever the URL length', async () => {
    const long = await cacheKey(request({ url: `https://example.com/${'a'.repeat(8000)}` }));
    expect(long).toMatch(/^render:v2:[0-9a-f]{64}$/);
    expect(await cacheKey(base)).toMatch(/^render:v2:[0-9a-f]{64}$/);
  });

  it.each([
    ['raw', { raw: true }],
    ['max_age', { max_age: 600 }],
    ['the fragment', { url: 'https://example.com/a#top' }],
    ['the host case', { url: 'https://EXAMPLE.com/a' }],
    ['wait_ms 0 (the default 5000)', { wait_ms: 0 }],
    ['wait_ms 5000 written out', { wait_ms: 5000 }],
    ['the country case', { country: 'jp' }],
    ['scroll false written out', { scroll: false }],
    ['wait_for_selector null', { wait_for_selector: null }],
    ['an empty include_selectors', { include_selectors: [] }],
    ['consent reject written out', { consent: 'reject' }],
    ['device desktop written out', { device: 'desktop' }],
    ['viewport null', { viewport: null }],
    ['include_links false written out', { include_links: false }],
    ['include_images false written out', { include_images: false }],
  ])('does not depend on %s', async (_name, fields) => {
    const against = 'country' in fields ? request({ country: 'JP' }) : base;
    expect(await cacheKey(request(fields))).toBe(await cacheKey(against));
  });

  it.each([
    ['url', { url: 'https://example.com/b' }],
    ['output_format', { output_format: 'markdown' }],
    ['wait_event', { wait_event: 'load' }],
    ['wait_ms', { wait_ms: 1000 }],
    ['country', { country: 'JP' }],
    ['only_main_content', { only_main_content: true }],
    ['include_metadata', { include_metadata: true }],
    ['wait_for_selector', { wait_for_selector: '#comments' }],
    ['scroll', { scroll: true }],
    ['include_selectors', { include_selectors: ['article'] }],
    ['exclude_selectors', { exclude_selectors: ['.ad'] }],
    ['consent', { consent: 'keep' }],
    ['the order of the selectors', { include_selectors: ['article', 'h1'] }],
    ['device', { device: 'mobile' }],
    ['viewport', { viewport: { width: 1024, height: 768 } }],
    ['include_links', { include_links: true }],
    ['include_images', { include_images: true }],
  ])('changes with %s', async (_name, fields) => {
    expect(await cacheKey(request(fields))).not.toBe(await cacheKey(base));
  });

  it('is the key stored renders were written under, for the same request', async () => {
    expect(await cacheKey(base)).toBe('render:v2:78918b993c51c7a5e21d2da0b6df94bc63e3422a0232e5b8e626c78c14cfe9d6');
    const every = request({
      url: 'https://Example.com/a?q=1#top',
      output_format: 'markdown',
      wait_event: 'load',
      wait_ms: 1000,
      wait_for_selector: '#c',
      scroll: true,
      include_selectors: ['article'],
      exclude_selectors: ['.ad'],
      consent: 'keep',
      country: 'jp',
      only_main_content: true,
      include_metadata: true,
      raw: true,
      max_age: 60,
    });
    expect(await cacheKey(every)).toBe('render:v2:8c6eebd7b1bff95dfb5394fab99d2d75c3cd087b1edb3a5f10efd21cef55ea5f');
  });

  it('holds every option of the request but raw and max_age, the views only when asked', () => {
    const VIEWS = ['include_links', 'include_images', 'screenshot'];
    const options = Object.keys(requestOptions(base)).filter((name) => name !== 'raw' && name !== 'max_age');
    expect(Object.keys(keyFields(base))).toEqual(['url', ...options.filter((name) => !VIEWS.includes(name))]);
    const withViews = request({ include_links: true, include_images: true, screenshot: true });
    expect(Object.keys(keyFields(withViews))).toEqual(['url', ...options]);
  });

  it('tells viewports and devices apart', async () => {
    const keys = await Promise.all(
      [
        { viewport: { width: 1024, height: 768 } },
        { viewport: { width: 768, height: 1024 } },
        { device: 'mobile', viewport: { width: 1024, height: 768 } },
        { device: 'mobile' },
      ].map((fields) => cacheKey(request(fields))),
    );
    expect(new Set(keys).size).toBe(4);
  });

  it('changes with proxy_name', async () => {
    const proxies = readConfig({ PROXIES: JSON.stringify({ dc: { kind: 'datacenter', server: 'http://dc.example:8080' } }) });
    const viaProxy = parseFetchRequest({ url: 'https://example.com/a', proxy_name: 'dc' }, proxies);
    expect(await cacheKey(viaProxy)).not.toBe(await cacheKey(parseFetchRequest({ url: 'https://example.com/a' }, proxies)));
  });
});
