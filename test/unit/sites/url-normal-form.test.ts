import { describe, expect, it } from 'vitest';
import { normalizeUrl } from '../../../src/sites/url-normal-form.js';

describe('normalizeUrl', () => {
  it('lower-cases scheme and host and drops the default port and fragment', () => {
    expect(normalizeUrl('HTTP://Example.COM:80/Docs#intro')).toBe('http://example.com/Docs');
    expect(normalizeUrl('https://example.com:443/a')).toBe('https://example.com/a');
    expect(normalizeUrl('https://example.com:8443/a')).toBe('https://example.com:8443/a');
  });

  it('spells each percent-encoded byte one way: upper-case hex, unreserved characters decoded', () => {
    expect(normalizeUrl('https://example.com/%7euser/a%2fb?q=%e2%82%ac')).toBe('https://example.com/~user/a%2Fb?q=%E2%82%AC');
    expect(normalizeUrl('https://example.com/%41%42c')).toBe('https://example.com/ABc');
  });

  it('keeps the query unless the job ignores queries', () => {
    expect(normalizeUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(normalizeUrl('https://example.com/a?b=1', { ignoreQuery: true })).toBe('https://example.com/a');
  });

  it('gives an empty path its slash', () => {
    expect(normalizeUrl('https://example.com')).toBe('https://example.com/');
  });

  it('is undefined for what is not an absolute http(s) URL', () => {
    expect(normalizeUrl('mailto:a@example.com')).toBeUndefined();
    expect(normalizeUrl('/relative')).toBeUndefined();
    expect(normalizeUrl('ftp://example.com/')).toBeUndefined();
  });
});
