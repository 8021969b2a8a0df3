import { describe, expect, it } from 'vitest';
import { originHeaders } from '../../../../src/browser/page/origin-headers.js';

const SENT = { Accept: '*/*', 'User-Agent': 'Browser/1', 'Accept-Language': 'de-CH' };
const record = (headers: { name: string; value: string }[] | undefined) =>
  headers === undefined ? undefined : Object.fromEntries(headers.map(({ name, value }) => [name.toLowerCase(), value]));

describe('originHeaders', () => {
  const rule = () => originHeaders({ authorization: 'Bearer t', 'x-trace': '1' }, 'https://example.com/page');

  it("adds the headers to the target's own origin, replacing the browser's of the same name", () => {
    const sent = { ...SENT, Authorization: 'old' };
    expect(record(rule().headersFor('https://example.com/api', sent, false))).toEqual({
      accept: '*/*',
      'user-agent': 'Browser/1',
      'accept-language': 'de-CH',
      authorization: 'Bearer t',
      'x-trace': '1',
    });
  });

  it('leaves requests to another origin unchanged: another host, port or scheme', () => {
    const r = rule();
    for (const url of ['https://cdn.example.net/a.js', 'https://example.com:8443/a', 'http://example.com/a', 'https://www.example.com/a']) {
      expect(r.headersFor(url, SENT, false)).toBeUndefined();
    }
  });

  it('follows the page to a same-site origin it is redirected to, not to another site nor down to http', () => {
    const r = rule();
    expect(record(r.headersFor('https://www.example.com/', SENT, true))?.authorization).toBe('Bearer t');
    expect(record(r.headersFor('https://www.example.com/img.png', SENT, false))?.authorization).toBe('Bearer t');
    expect(r.headersFor('https://other.org/', SENT, true)).toBeUndefined();
    expect(r.headersFor('http://example.com/', SENT, true)).toBeUndefined();
    // A subresource of another same-site origin is not the page's redirect.
    expect(r.headersFor('https://api.example.com/x', SENT, false)).toBeUndefined();
  });

  it('takes an upgrade from http to https within the site', () => {
    const r = originHeaders({ authorization: 'Bearer t' }, 'http://example.com/');
    expect(record(r.headersFor('https://example.com/', SENT, true))?.authorization).toBe('Bearer t');
  });

  it("drops the caller's User-Agent and Accept-Language elsewhere, so the browser sends its own", () => {
    const r = originHeaders({ 'user-agent': 'Caller/2', 'accept-language': 'fr' }, 'https://example.com/');
    const sent = { Accept: '*/*', 'User-Agent': 'Caller/2', 'Accept-Language': 'fr' };
    expect(record(r.headersFor('https://example.com/a', sent, false))).toEqual({
      accept: '*/*',
      'user-agent': 'Caller/2',
      'accept-language': 'fr',
    });
    expect(record(r.headersFor('https://cdn.net/a', sent, false))).toEqual({ accept: '*/*' });
  });

  it("gives another origin the device's user agent in place of the caller's", () => {
    const r = originHeaders({ 'user-agent': 'Caller/2' }, 'https://example.com/', 'Phone/3');
    expect(record(r.headersFor('https://cdn.net/a', { 'User-Agent': 'Caller/2' }, false))).toEqual({ 'user-agent': 'Phone/3' });
  });

  it('leaves requests that are not http(s) alone', () => {
    expect(rule().headersFor('data:text/plain,x', SENT, false)).toBeUndefined();
  });
});
