import { describe, expect, it } from 'vitest';
import { readConfig, type Config } from '../../../src/api/config.js';
import { ApiError } from '../../../src/errors.js';
import { fetchRequestSchema, parseFetchRequest, requestOptions } from '../../../src/api/fetch-request.js';

const config: Config = readConfig({});
const withProxies = (proxies: object): Config => readConfig({ PROXIES: JSON.stringify(proxies) });

function failure(json: unknown, cfg: Config = config): ApiError {
  try {
    parseFetchRequest(json, cfg);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the request to be rejected');
}

const URL_OK = 'https://example.com/page';

describe('parseFetchRequest defaults', () => {
  it('applies every documented default when only url is given', () => {
    expect(parseFetchRequest({ url: URL_OK }, config)).toEqual({
      url: URL_OK,
      outputFormat: 'html',
      waitMs: 5000,
      waitEvent: 'networkIdle',
      scroll: false,
      consent: 'reject',
      raw: false,
      includeMetadata: false,
      onlyMainContent: false,
      maxAge: 0,
      includeLinks: false,
      includeImages: false,
      egress: { kind: 'direct' },
      visit: { device: 'desktop' },
    });
  });

  it('treats null for every optional field as absent', () => {
    const nulls = {
      output_format: null,
      wait_ms: null,
      wait_event: null,
      raw: null,
      include_metadata: null,
      only_main_content: null,
      max_age: null,
      proxy_name: null,
      country: null,
      wait_for_selector: null,
      scroll: null,
      include_selectors: null,
      exclude_selectors: null,
      consent: null,
      include_links: null,
      include_images: null,
    };
    expect(parseFetchRequest({ url: URL_OK, ...nulls }, config)).toEqual(parseFetchRequest({ url: URL_OK }, config));
  });

  it('reads wait_ms 0 as the default 5000', () => {
    expect(parseFetchRequest({ url: URL_OK, wait_ms: 0 }, config).waitMs).toBe(5000);
  });

  it('keeps wait_for_selector as written and scroll', () => {
    const request = parseFetchRequest({ url: URL_OK, wait_for_selector: ' #comments  > li ', scroll: true }, config);
    expect(request).toMatchObject({ waitForSelector: ' #comments  > li ', scroll: true });
  });

  it('keeps the selector lists as written, and takes an empty list as none', () => {
    const request = parseFetchRequest({ url: URL_OK, include_selectors: ['article', ' .body p '], exclude_selectors: ['.ad'] }, config);
    expect(request).toMatchObject({ includeSelectors: ['article', ' .body p '], excludeSelectors: ['.ad'] });
    const empty = parseFetchRequest({ url: URL_OK, include_selectors: [], exclude_selectors: [] }, config);
    expect(empty).toEqual(parseFetchRequest({ url: URL_OK }, config));
  });

  it('names every failing selector of a list by its index', () => {
    const error = failure({ url: URL_OK, include_selectors: ['h1', '', 'a;b'], exclude_selectors: [',a', 'p', 7] });
    expect(error.details).toEqual([
      { field: 'include_selectors[1]', message: 'must not be empty' },
      { field: 'include_selectors[2]', message: 'is not a valid CSS selector (Unexpected input)' },
      { field: 'exclude_selectors[0]', message: 'is not a valid CSS selector (Selector is expected)' },
      { field: 'exclude_selectors[2]', message: 'must be a string' },
    ]);
  });

  it('keeps explicit values', () => {
    const request = parseFetchRequest({ url: URL_OK, output_format: 'markdown', wait_ms: 1234, wait_event: 'load', raw: true }, config);
    expect(request).toMatchObject({ outputFormat: 'markdown', waitMs: 1234, waitEvent: 'load', raw: true });
  });

  it.each(['DOMContentLoaded', 'load', 'networkAlmostIdle', 'networkIdle'])('accepts wait_event %s', (event) => {
    expect(parseFetchRequest({ url: URL_OK, wait_event: event }, config).waitEvent).toBe(event);
  });

  it('accepts wait_ms equal to MAX_WAIT_MS', () => {
    expect(parseFetchRequest({ url: URL_OK, wait_ms: 60000 }, config).waitMs).toBe(60000);
  });

  it('accepts a url of exactly 8192 characters', () => {
    const url = 'https://example.com/' + 'a'.repeat(8192 - 'https://example.com/'.length);
    expect(parseFetchRequest({ url }, config).url).toBe(url);
  });
});

describe('parseFetchRequest rejections', () => {
  it.each([
    ['an array', []],
    ['a string', 'https://example.com'],
    ['a number', 42],
    ['null', null],
  ])('answers malformed_json when the body is %s', (_name, json) => {
    expect(failure(json).code).toBe('malformed_json');
  });

  it.each([
    ['missing', {}, 'url'],
    ['not a string', { url: 42 }, 'url'],
    ['relative', { url: '/path' }, 'url'],
    ['not http', { url: 'ftp://example.com/' }, 'url'],
    ['a file URL', { url: 'file:///etc/passwd' }, 'url'],
    ['a javascript URL', { url: 'javascript:alert(1)' }, 'url'],
    ['garbage', { url: 'not a url' }, 'url'],
    ['over 8192 characters', { url: 'https://example.com/' + 'a'.repeat(8200) }, 'url'],
    ['an unknown output_format', { url: URL_OK, output_format: 'pdf' }, 'output_format'],
    ['output_format in another case', { url: URL_OK, output_format: 'HTML' }, 'output_format'],
    ['a negative wait_ms', { url: URL_OK, wait_ms: -1 }, 'wait_ms'],
    ['a fractional wait_ms', { url: URL_OK, wait_ms: 1.5 }, 'wait_ms'],
    ['wait_ms as a string', { url: URL_OK, wait_ms: '1000' }, 'wait_ms'],
    ['wait_ms above MAX_WAIT_MS', { url: URL_OK, wait_ms: 60001 }, 'wait_ms'],
    ['a negative max_age', { url: URL_OK, max_age: -1 }, 'max_age'],
    ['a fractional max_age', { url: URL_OK, max_age: 0.5 }, 'max_age'],
    ['max_age as a string', { url: URL_OK, max_age: '60' }, 'max_age'],
    ['max_age above MAX_CACHE_AGE', { url: URL_OK, max_age: 86401 }, 'max_age'],
    ['an unknown wait_event', { url: URL_OK, wait_event: 'networkidle0' }, 'wait_event'],
    ['wait_event in another case', { url: URL_OK, wait_event: 'LOAD' }, 'wait_event'],
    ['raw as a string', { url: URL_OK, raw: 'true' }, 'raw'],
    ['raw as a number', { url: URL_OK, raw: 1 }, 'raw'],
    ['wait_for_selector as a number', { url: URL_OK, wait_for_selector: 1 }, 'wait_for_selector'],
    ['wait_for_selector as a list', { url: URL_OK, wait_for_selector: ['#a'] }, 'wait_for_selector'],
    ['an empty wait_for_selector', { url: URL_OK, wait_for_selector: '' }, 'wait_for_selector'],
    ['a wait_for_selector that is not a selector', { url: URL_OK, wait_for_selector: 'div;p' }, 'wait_for_selector'],
    ['wait_for_selector over 1024 characters', { url: URL_OK, wait_for_selector: `#${'a'.repeat(1024)}` }, 'wait_for_selector'],
    ['scroll as a string', { url: URL_OK, scroll: 'true' }, 'scroll'],
    ['an unknown consent', { url: URL_OK, consent: 'accept' }, 'consent'],
    ['consent in another case', { url: URL_OK, consent: 'Reject' }, 'consent'],
    ['consent as a boolean', { url: URL_OK, consent: false }, 'consent'],
    ['scroll as a number', { url: URL_OK, scroll: 1 }, 'scroll'],
    ['include_selectors as a string', { url: URL_OK, include_selectors: 'p' }, 'include_selectors'],
    ['include_selectors as an object', { url: URL_OK, include_selectors: { 0: 'p' } }, 'include_selectors'],
    ['more than 20 exclude_selectors', { url: URL_OK, exclude_selectors: Array.from({ length: 21 }, () => 'p') }, 'exclude_selectors'],
    ['an include selector over 1024 characters', { url: URL_OK, include_selectors: [`#${'a'.repeat(1024)}`] }, 'include_selectors[0]'],
    ['an empty proxy_name', { url: URL_OK, proxy_name: '' }, 'proxy_name'],
    ['an unknown proxy_name', { url: URL_OK, proxy_name: 'residential_eu' }, 'proxy_name'],
    ['a three-letter country', { url: URL_OK, country: 'USA' }, 'country'],
    ['a numeric country', { url: URL_OK, country: 12 }, 'country'],
    ['a country Browser Rendering has no location for', { url: URL_OK, country: 'AQ' }, 'country'],
    ['an unknown field', { url: URL_OK, outputFormat: 'markdown' }, 'outputFormat'],
  ])('answers invalid_request naming the field when it is %s', (_name, json, field) => {
    const error = failure(json);
    expect(error.code).toBe('invalid_request');
    expect(error.status).toBe(400);
    expect(error.details?.map((detail) => detail.field)).toEqual([field]);
  });

  it('reports every failing field, not only the first', () => {
    const error = failure({ url: 'nope', output_format: 'pdf', wait_ms: -5, wait_event: 'x', raw: 'yes', extra: 1, other: 2 });
    expect(error.details?.map((detail) => detail.field).sort()).toEqual(
      ['extra', 'other', 'output_format', 'raw', 'url', 'wait_event', 'wait_ms'].sort(),
    );
    for (const detail of error.details ?? []) expect(detail.message.length).toBeGreaterThan(0);
  });

  it('reports proxy and country problems together with the other failing fields', () => {
    const error = failure({ url: 'nope', wait_ms: -1, proxy_name: 'unknown', raw: 'yes' });
    expect(error.details?.map((detail) => detail.field).sort()).toEqual(['proxy_name', 'raw', 'url', 'wait_ms']);
    const country = failure({ wait_ms: 'x', country: 'ZZ' });
    expect(country.details?.map((detail) => detail.field).sort()).toEqual(['country', 'url', 'wait_ms']);
  });

  it('reads max_age, up to MAX_CACHE_AGE from the configuration', () => {
    expect(parseFetchRequest({ url: URL_OK, max_age: 3600 }, config).maxAge).toBe(3600);
    const error = failure({ url: URL_OK, max_age: 601 }, readConfig({ MAX_CACHE_AGE: '600' }));
    expect(error.details).toEqual([{ field: 'max_age', message: 'must be at most 600' }]);
  });

  it('applies MAX_WAIT_MS from the configuration', () => {
    const error = failure({ url: URL_OK, wait_ms: 2001 }, readConfig({ MAX_WAIT_MS: '2000' }));
    expect(error.details).toEqual([{ field: 'wait_ms', message: 'must be at most 2000' }]);
  });

  it('holds each configuration to its own limits when schemas are reused across requests', () => {
    const strict = readConfig({ MAX_WAIT_MS: '2000', MAX_CACHE_AGE: '600' });
    const wide = readConfig({ MAX_WAIT_MS: '9000', MAX_CACHE_AGE: '900' });
    for (let round = 0; round < 2; round++) {
      expect(parseFetchRequest({ url: URL_OK, wait_ms: 8000, max_age: 800 }, wide).waitMs).toBe(8000);
      expect(failure({ url: URL_OK, wait_ms: 8000, max_age: 800 }, strict).details).toEqual([
        { field: 'wait_ms', message: 'must be at most 2000' },
        { field: 'max_age', message: 'must be at most 600' },
      ]);
    }
  });

  it('lists the configured proxy names when proxy_name is unknown', () => {
    const error = failure({ url: URL_OK, proxy_name: 'nope' }, withProxies({ resi: { kind: 'residential', server: 'http://p:1' } }));
    expect(error.details?.[0]?.message).toContain('fast_dc, resi');
  });
});

describe('parseFetchRequest proxies and country', () => {
  it('maps country with fast_dc to the browser launch location, in any case', () => {
    expect(parseFetchRequest({ url: URL_OK, country: 'de' }, config).egress).toEqual({ kind: 'direct', location: 'DE' });
    expect(parseFetchRequest({ url: URL_OK, country: 'Us', proxy_name: 'fast_dc' }, config).egress).toEqual({
      kind: 'direct',
      location: 'US',
    });
  });

  it('routes a configured proxy by name', () => {
    const cfg = withProxies({ resi: { kind: 'residential', server: 'http://p:1' } });
    expect(parseFetchRequest({ url: URL_OK, proxy_name: 'resi' }, cfg).egress).toEqual({
      kind: 'proxy',
      route: { name: 'resi', server: 'http://p:1', username: undefined, password: undefined },
      country: undefined,
    });
  });

  it('ignores country for residential, isp and mobile proxies', () => {
    const cfg = withProxies({
      resi: { kind: 'residential', server: 'http://p:1' },
      isp: { kind: 'isp', server: 'http://p:2' },
      mob: { kind: 'mobile', server: 'http://p:3' },
    });
    for (const name of ['resi', 'isp', 'mob']) {
      expect(parseFetchRequest({ url: URL_OK, proxy_name: name, country: 'fr' }, cfg).egress).toMatchObject({
        kind: 'proxy',
        route: { name },
        country: undefined,
      });
    }
  });

  it('passes country to a datacenter proxy that has a country_username template', () => {
    const cfg = withProxies({
      dc: { kind: 'datacenter', server: 'http://p:1', username: 'u', country_username: '{username}-country-{country}' },
    });
    expect(parseFetchRequest({ url: URL_OK, proxy_name: 'dc', country: 'fr' }, cfg).egress).toEqual({
      kind: 'proxy',
      route: { name: 'dc', server: 'http://p:1', username: 'u-country-fr', password: undefined },
      country: 'FR',
    });
  });

  it('rejects country for a datacenter proxy without a country_username template', () => {
    const cfg = withProxies({ dc: { kind: 'datacenter', server: 'http://p:1' } });
    const error = failure({ url: URL_OK, proxy_name: 'dc', country: 'fr' }, cfg);
    expect(error.details).toEqual([{ field: 'country', message: expect.stringContaining('country_username') }]);
  });

  it('uses an upstream proxy when PROXIES redefines fast_dc', () => {
    const cfg = withProxies({ fast_dc: { kind: 'datacenter', server: 'http://p:1', country_username: '{username}-{country}' } });
    expect(parseFetchRequest({ url: URL_OK, country: 'gb' }, cfg).egress).toEqual({
      kind: 'proxy',
      route: { name: 'fast_dc', server: 'http://p:1', username: '-gb', password: undefined },
      country: 'GB',
    });
  });
});

describe('screenshot', () => {
  const screenshotOf = (screenshot: unknown) => parseFetchRequest({ url: URL_OK, screenshot }, config).screenshot;
  const fieldsOf = (screenshot: unknown) => {
    try {
      parseFetchRequest({ url: URL_OK, screenshot }, config);
    } catch (error) {
      return ((error as ApiError).details ?? []).map((detail) => detail.field);
    }
    return [];
  };

  it('is the viewport as PNG for true and {}, none for false and null', () => {
    expect(screenshotOf(true)).toEqual({ fullPage: false, type: 'png' });
    expect(screenshotOf({})).toEqual({ fullPage: false, type: 'png' });
    expect(screenshotOf(false)).toBeUndefined();
    expect(screenshotOf(null)).toBeUndefined();
  });

  it('takes every key', () => {
    expect(screenshotOf({ full_page: true, selector: '#x', type: 'webp', quality: 70 })).toEqual({
      fullPage: true,
      selector: '#x',
      type: 'webp',
      quality: 70,
    });
  });

  it.each([
    [{ quality: 50 }, 'screenshot.quality'],
    [{ type: 'png', quality: 50 }, 'screenshot.quality'],
    [{ type: 'jpeg', quality: 0 }, 'screenshot.quality'],
    [{ fullPage: true }, 'screenshot.fullPage'],
    [{ selector: '!!' }, 'screenshot.selector'],
    [{ type: 'gif' }, 'screenshot.type'],
    [{ full_page: 'yes' }, 'screenshot.full_page'],
    ['yes', 'screenshot'],
  ])('names the failing key of %j', (screenshot, field) => {
    expect(fieldsOf(screenshot)).toEqual([field]);
  });
});

describe('requestOptions', () => {
  it('names every field of the body but the URL, in one fixed order', () => {
    const fields = Object.keys(fetchRequestSchema(config).shape).filter((field) => field !== 'url');
    // The request controls are options only when set: this request sets them all.
    const controls = {
      headers: { 'X-A': 'v' },
      cookies: [{ name: 'a', value: 'v' }],
      device: 'mobile',
      viewport: { width: 400, height: 800 },
    };
    const options = Object.keys(requestOptions(parseFetchRequest({ url: URL_OK, ...controls }, config)));
    expect([...options].sort()).toEqual([...fields].sort());
    expect(options).toEqual([
      'output_format',
      'wait_event',
      'wait_ms',
      'wait_for_selector',
      'scroll',
      'include_selectors',
      'exclude_selectors',
      'consent',
      'proxy_name',
      'country',
      'only_main_content',
      'include_metadata',
      'raw',
      'max_age',
      'include_links',
      'include_images',
      'screenshot',
      'device',
      'viewport',
      'headers',
      'cookies',
    ]);
  });

  it('gives each option as the request resolved it, an absent one as null', () => {
    expect(requestOptions(parseFetchRequest({ url: URL_OK, wait_ms: 0, country: 'jp', include_selectors: [] }, config))).toEqual({
      output_format: 'html',
      wait_event: 'networkIdle',
      wait_ms: 5000,
      wait_for_selector: null,
      scroll: false,
      include_selectors: null,
      exclude_selectors: null,
      consent: 'reject',
      proxy_name: 'fast_dc',
      country: 'JP',
      only_main_content: false,
      include_metadata: false,
      raw: false,
      max_age: 0,
      include_links: false,
      include_images: false,
      screenshot: null,
    });
    expect(requestOptions(parseFetchRequest({ url: URL_OK }, config)).country).toBeNull();
  });

  it('gives the request controls only when set, and of headers and cookies never a value', () => {
    const request = parseFetchRequest(
      {
        url: URL_OK,
        headers: { Authorization: 'Bearer secret-1' },
        cookies: [{ name: 'sid', value: 'secret-2' }],
        viewport: { width: 400, height: 800 },
      },
      config,
    );
    const { device, viewport, headers, cookies } = requestOptions(request);
    expect({ device, viewport, headers, cookies }).toEqual({
      device: 'desktop',
      viewport: '400x800',
      headers: ['authorization'],
      cookies: 1,
    });
    expect(JSON.stringify(requestOptions(request))).not.toContain('secret');
    expect(requestOptions(parseFetchRequest({ url: URL_OK, device: 'desktop', headers: {}, cookies: [] }, config))).not.toHaveProperty(
      'device',
    );
  });
});
