import { describe, expect, it } from 'vitest';
import { inScope, isTrapUrl } from '../../../src/sites/scope.js';

const start = new URL('https://example.com/docs/');

describe('inScope', () => {
  it('holds the start host name and port', () => {
    expect(inScope(new URL('https://example.com/blog'), start, false)).toBe(true);
    expect(inScope(new URL('https://example.com:443/blog'), start, false)).toBe(true);
    expect(inScope(new URL('https://example.com:8443/blog'), start, false)).toBe(false);
    expect(inScope(new URL('https://other.com/'), start, false)).toBe(false);
  });

  it('holds subdomains only when asked', () => {
    expect(inScope(new URL('https://api.example.com/'), start, false)).toBe(false);
    expect(inScope(new URL('https://api.example.com/'), start, true)).toBe(true);
    expect(inScope(new URL('https://badexample.com/'), start, true)).toBe(false);
  });

  it('holds http(s) only', () => {
    expect(inScope(new URL('ftp://example.com/'), start, true)).toBe(false);
  });
});

describe('isTrapUrl', () => {
  it('is true past 2048 characters', () => {
    expect(isTrapUrl(new URL(`https://e.com/${'a'.repeat(2048)}`))).toBe(true);
    expect(isTrapUrl(new URL(`https://e.com/${'a'.repeat(2000)}`))).toBe(false);
  });

  it('is true past 32 path segments', () => {
    expect(isTrapUrl(new URL(`https://e.com/${'a/'.repeat(33)}`))).toBe(true);
    expect(isTrapUrl(new URL(`https://e.com/${'a/'.repeat(32)}`))).toBe(false);
  });
});
