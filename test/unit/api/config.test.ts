import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../src/api/config.js';
import { proxyUsername } from '../../../src/api/egress.js';
import { ConfigError } from '../../../src/errors.js';

describe('readConfig', () => {
  it('applies the documented defaults', () => {
    expect(readConfig({})).toEqual({
      apiTokens: [],
      proxies: new Map(),
      allowPrivateNetwork: false,
      maxWaitMs: 60000,
      navigationTimeoutMs: 30000,
      maxContentBytes: 10485760,
      blockMedia: true,
      browserIdleCloseMs: 60000,
      maxCacheAge: 86400,
      maxBrowsersPerLocation: 4,
      maxPagesPerBrowser: 10,
      queueTimeoutMs: 5000,
      maxScrollSteps: 10,
      maxPdfBytes: 26214400,
      maxPdfPages: 300,
      maxScreenshotHeight: 32768,
      sites: {
        maxCrawlPages: 10000,
        maxBatchUrls: 1000,
        maxJobsPerToken: 5,
        jobRetentionS: 604800,
        jobPageBytes: 10485760,
        crawlHostDelayMs: 250,
        crawlHostConcurrency: 4,
      },
    });
  });

  it("reads the site operations' bounds", () => {
    expect(
      readConfig({ MAX_BATCH_URLS: '7', MAX_JOBS_PER_TOKEN: '2', JOB_PAGE_BYTES: '4096', CRAWL_HOST_DELAY_MS: '1' }).sites,
    ).toMatchObject({
      maxBatchUrls: 7,
      maxJobsPerToken: 2,
      jobPageBytes: 4096,
      crawlHostDelayMs: 1,
    });
  });

  it('lifts the pacing delay with CRAWL_HOST_DELAY_MS=0 and refuses a negative one', () => {
    expect(readConfig({ CRAWL_HOST_DELAY_MS: '0' }).sites.crawlHostDelayMs).toBe(0);
    expect(() => readConfig({ CRAWL_HOST_DELAY_MS: '-1' })).toThrow('CRAWL_HOST_DELAY_MS must be a non-negative integer');
  });

  it('reads the screenshot bound', () => {
    expect(readConfig({ MAX_SCREENSHOT_HEIGHT: '20000' }).maxScreenshotHeight).toBe(20000);
  });

  it('reads the PDF bounds', () => {
    expect(readConfig({ MAX_PDF_BYTES: '1048576', MAX_PDF_PAGES: '3' })).toMatchObject({ maxPdfBytes: 1048576, maxPdfPages: 3 });
  });

  it('reads the browser vars', () => {
    expect(readConfig({ BLOCK_MEDIA: 'false', BROWSER_IDLE_CLOSE_MS: '1500' })).toMatchObject({
      blockMedia: false,
      browserIdleCloseMs: 1500,
    });
  });

  it('splits API_TOKENS on commas and drops blanks, for rotation', () => {
    expect(readConfig({ API_TOKENS: ' old-token , new-token ,, ' }).apiTokens).toEqual(['old-token', 'new-token']);
  });

  it.each([
    ['true', true],
    ['TRUE', true],
    ['false', false],
    ['1', false],
    ['yes', false],
  ])('reads ALLOW_PRIVATE_NETWORK=%s as %s', (value, expected) => {
    expect(readConfig({ ALLOW_PRIVATE_NETWORK: value }).allowPrivateNetwork).toBe(expected);
  });

  it('reads numeric vars', () => {
    expect(
      readConfig({ MAX_WAIT_MS: '1000', NAVIGATION_TIMEOUT_MS: '2000', MAX_CONTENT_BYTES: '3000', MAX_CACHE_AGE: '4000' }),
    ).toMatchObject({
      maxWaitMs: 1000,
      navigationTimeoutMs: 2000,
      maxContentBytes: 3000,
      maxCacheAge: 4000,
    });
  });

  it.each(['abc', '-1', '0', '1.5'])('rejects a numeric var of %s', (value) => {
    expect(() => readConfig({ MAX_WAIT_MS: value })).toThrow(ConfigError);
  });

  it('parses PROXIES entries', () => {
    const config = readConfig({
      PROXIES: JSON.stringify({
        resi: { kind: 'residential', server: 'http://proxy.example:8080', username: 'u', password: 'p' },
        dc: { kind: 'datacenter', server: 'socks5://10.0.0.1:1080', country_username: '{username}-country-{country}' },
      }),
    });
    expect(config.proxies.get('resi')).toEqual({
      kind: 'residential',
      server: 'http://proxy.example:8080',
      username: 'u',
      password: 'p',
      countryUsername: undefined,
    });
    expect(config.proxies.get('dc')?.countryUsername).toBe('{username}-country-{country}');
  });

  it.each([
    ['not JSON', '{nope'],
    ['an unknown kind', JSON.stringify({ a: { kind: 'cloud', server: 'http://p:1' } })],
    ['a server that is not a URL', JSON.stringify({ a: { kind: 'isp', server: 'p:1' } })],
    ['a server with a path', JSON.stringify({ a: { kind: 'isp', server: 'http://p:1/x' } })],
    ['an unknown member', JSON.stringify({ a: { kind: 'isp', server: 'http://p:1', pass: 'x' } })],
    ['a template without {country}', JSON.stringify({ a: { kind: 'datacenter', server: 'http://p:1', country_username: 'u' } })],
    ['an array', JSON.stringify([1])],
  ])('rejects PROXIES with %s', (_name, value) => {
    expect(() => readConfig({ PROXIES: value })).toThrow(ConfigError);
  });

  it('never puts a proxy password in its error message', () => {
    const secret = 'hunter2-secret';
    try {
      readConfig({ PROXIES: JSON.stringify({ a: { kind: 'bad', server: 'http://p:1', password: secret } }) });
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(secret);
    }
  });
});

describe('proxyUsername', () => {
  const dc = { kind: 'datacenter' as const, server: 'http://p:1', username: 'acct', countryUsername: '{username}-country-{country}' };

  it('fills the country template for a datacenter proxy', () => {
    expect(proxyUsername(dc, 'FR')).toBe('acct-country-fr');
  });

  it('keeps the plain username without a country', () => {
    expect(proxyUsername(dc, undefined)).toBe('acct');
  });

  it('keeps the plain username for other kinds', () => {
    expect(proxyUsername({ ...dc, kind: 'residential' }, 'FR')).toBe('acct');
  });
});
