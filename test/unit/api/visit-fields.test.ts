import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../src/api/config.js';
import { parseFetchRequest } from '../../../src/api/fetch-request.js';
import { cookieDomainProblem } from '../../../src/api/visit-fields.js';
import { ApiError } from '../../../src/errors.js';

const config = readConfig({});
const URL_OK = 'https://www.example.co.uk/account';
const SECRET = 'Bearer s3cr3t-value';

function failure(fields: object, url = URL_OK): ApiError {
  try {
    parseFetchRequest({ url, ...fields }, config);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the request to be rejected');
}

const fieldsOf = (error: ApiError) => (error.details ?? []).map((detail) => detail.field);
/** Nothing of a refused request's values in what the caller or the log is told. */
function expectNoValue(error: ApiError, value: string) {
  expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain(value);
}

describe('request controls: accepted forms', () => {
  it('normalizes headers to lower-case names and keeps the values exactly', () => {
    const request = parseFetchRequest({ url: URL_OK, headers: { Authorization: SECRET, 'X-Trace': ' a\tb ' } }, config);
    expect(request.visit).toEqual({ device: 'desktop', headers: { authorization: SECRET, 'x-trace': ' a\tb ' } });
  });

  it('takes an empty headers object, an empty cookie list and null as absent', () => {
    for (const fields of [
      { headers: {}, cookies: [] },
      { headers: null, cookies: null, device: null, viewport: null },
    ]) {
      expect(parseFetchRequest({ url: URL_OK, ...fields }, config).visit).toEqual({ device: 'desktop' });
    }
  });

  it('takes cookies with their attributes, the domain without its leading dot', () => {
    const cookie = { name: 'sid', value: 'abc', domain: '.Example.co.uk', path: '/a', secure: true, http_only: true, same_site: 'none' };
    expect(parseFetchRequest({ url: URL_OK, cookies: [cookie, { name: 'b', value: '' }] }, config).visit.cookies).toEqual([
      { name: 'sid', value: 'abc', domain: 'example.co.uk', path: '/a', secure: true, httpOnly: true, sameSite: 'none' },
      { name: 'b', value: '' },
    ]);
  });

  it('takes device and viewport', () => {
    const request = parseFetchRequest({ url: URL_OK, device: 'mobile', viewport: { width: 200, height: 8192 } }, config);
    expect(request.visit).toEqual({ device: 'mobile', viewport: { width: 200, height: 8192 } });
  });

  it('takes 30 headers and 50 cookies', () => {
    const headers = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`x-h${i}`, 'v']));
    const cookies = Array.from({ length: 50 }, (_, i) => ({ name: `c${i}`, value: 'v' }));
    expect(() => parseFetchRequest({ url: URL_OK, headers, cookies }, config)).not.toThrow();
  });
});

describe('request controls: refused forms name the field and never the value', () => {
  it.each([
    ['Host', 'headers.host'],
    ['cookie', 'headers.cookie'],
    ['Connection', 'headers.connection'],
    ['Content-Length', 'headers.content-length'],
    ['Transfer-Encoding', 'headers.transfer-encoding'],
    ['Upgrade', 'headers.upgrade'],
    ['TE', 'headers.te'],
    ['Keep-Alive', 'headers.keep-alive'],
    ['Trailer', 'headers.trailer'],
    ['Proxy-Authorization', 'headers.proxy-authorization'],
    ['X Bad Name', 'headers.x bad name'],
  ])('refuses the header %s as %s', (name, field) => {
    const error = failure({ headers: { [name]: SECRET } });
    expect(error.code).toBe('invalid_request');
    expect(fieldsOf(error)).toEqual([field]);
    expectNoValue(error, SECRET);
  });

  it.each([
    ['CR/LF', `${SECRET}\r\nX-Injected: 1`],
    ['LF', `${SECRET}\nX`],
    ['NUL', `${SECRET}\u0000`],
  ])('refuses a header value with %s', (_name, value) => {
    const error = failure({ headers: { Authorization: value } });
    expect(fieldsOf(error)).toEqual(['headers.authorization']);
    expectNoValue(error, SECRET);
  });

  it('refuses a header that is not a string, and one given twice in two cases', () => {
    expect(fieldsOf(failure({ headers: { 'X-A': 1 } }))).toEqual(['headers.x-a']);
    expect(fieldsOf(failure({ headers: { 'X-A': 'a', 'x-a': 'b' } }))).toEqual(['headers.x-a']);
    expect(fieldsOf(failure({ headers: ['x'] }))).toEqual(['headers']);
  });

  it('refuses more than 30 headers, and more than 16 KiB of them', () => {
    const many = Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`x-h${i}`, 'v']));
    expect(fieldsOf(failure({ headers: many }))).toEqual(['headers']);
    const large = failure({ headers: { 'x-a': 'a'.repeat(9000), 'x-b': 'b'.repeat(8000) } });
    expect(fieldsOf(large)).toEqual(['headers']);
    expect(large.details?.[0]?.message).toBe('must be at most 16384 bytes together');
  });

  it('refuses more than 50 cookies, and cookies without name or value', () => {
    const cookies = Array.from({ length: 51 }, (_, i) => ({ name: `c${i}`, value: 'v' }));
    expect(fieldsOf(failure({ cookies }))).toEqual(['cookies']);
    expect(fieldsOf(failure({ cookies: [{ value: 'v' }, { name: 'a' }, 'a=b'] }))).toEqual([
      'cookies[0].name',
      'cookies[1].value',
      'cookies[2]',
    ]);
  });

  it('refuses bad cookie attributes by their field', () => {
    const error = failure({
      cookies: [
        { name: 'a b', value: SECRET },
        { name: 'a', value: `${SECRET};x=1` },
        { name: 'a', value: 'v', path: 'a' },
        { name: 'a', value: 'v', same_site: 'none' },
        { name: 'a', value: 'v', same_site: 'sometimes', secure: 'yes', http_only: 1 },
        { name: 'a', value: 'v', expires: 1 },
      ],
    });
    expect(fieldsOf(error).sort()).toEqual(
      [
        'cookies[0].name',
        'cookies[1].value',
        'cookies[2].path',
        'cookies[3].same_site',
        'cookies[4].same_site',
        'cookies[4].secure',
        'cookies[4].http_only',
        'cookies[5].expires',
      ].sort(),
    );
    expectNoValue(error, SECRET);
  });

  it.each([
    ['another site', 'example.com'],
    ['a public suffix', 'co.uk'],
    ['a top-level domain', 'uk'],
    ['a sibling host', 'shop.example.co.uk'],
    ['a longer name that ends the same', 'xwww.example.co.uk'],
    ['an empty domain', ''],
  ])('refuses a cookie domain that is %s', (_name, domain) => {
    const error = failure({
      cookies: [
        { name: 'a', value: 'v' },
        { name: 'b', value: 'v' },
        { name: 'c', value: 'v' },
        { name: 'd', value: SECRET, domain },
      ],
    });
    expect(fieldsOf(error)).toEqual(['cookies[3].domain']);
    expectNoValue(error, SECRET);
  });

  it('accepts the host itself and its parent domains below the public suffix', () => {
    for (const domain of ['www.example.co.uk', 'example.co.uk', '.example.co.uk', 'WWW.EXAMPLE.CO.UK']) {
      expect(cookieDomainProblem(domain, URL_OK)).toBeUndefined();
    }
    expect(cookieDomainProblem('github.io', 'https://me.github.io/')).toBe('must not be a public suffix');
    expect(cookieDomainProblem('me.github.io', 'https://me.github.io/')).toBeUndefined();
  });

  it('takes an IP address host only as itself', () => {
    expect(cookieDomainProblem('127.0.0.1', 'http://127.0.0.1:8080/')).toBeUndefined();
    expect(cookieDomainProblem('0.0.1', 'http://127.0.0.1:8080/')).toBeDefined();
    expect(cookieDomainProblem('1', 'http://127.0.0.1:8080/')).toBeDefined();
  });

  it('reports a cookie domain together with the other failing fields', () => {
    const error = failure({ wait_ms: -1, headers: { Host: 'x' }, cookies: [{ name: 'a', value: 'v', domain: 'other.org' }] });
    expect(fieldsOf(error).sort()).toEqual(['cookies[0].domain', 'headers.host', 'wait_ms']);
  });

  it('does not judge cookie domains against a url that failed', () => {
    const error = failure({ cookies: [{ name: 'a', value: 'v', domain: 'other.org' }] }, 'ftp://other.org/');
    expect(fieldsOf(error)).toEqual(['url']);
  });

  it.each([
    ['width missing', { height: 800 }, ['viewport.width']],
    ['height missing', { width: 800 }, ['viewport.height']],
    ['a fractional width', { width: 800.5, height: 800 }, ['viewport.width']],
    ['a string height', { width: 800, height: '800' }, ['viewport.height']],
    ['a width too small', { width: 199, height: 800 }, ['viewport.width']],
    ['a width too large', { width: 4097, height: 800 }, ['viewport.width']],
    ['a height too large', { width: 800, height: 8193 }, ['viewport.height']],
    ['an unknown member', { width: 800, height: 800, scale: 2 }, ['viewport.scale']],
    ['not an object', [800, 600], ['viewport']],
  ])('refuses a viewport with %s', (_name, viewport, fields) => {
    expect(fieldsOf(failure({ viewport }))).toEqual(fields);
  });

  it('refuses an unknown device', () => {
    expect(fieldsOf(failure({ device: 'tablet' }))).toEqual(['device']);
  });

  it('never quotes a header value, whatever it holds', () => {
    const value = fc.string({ minLength: 8 }).map((text) => `${text}\r\n`);
    fc.assert(
      fc.property(value, fc.constantFrom('Host', 'Cookie', 'Authorization', 'Proxy-Authorization'), (text, name) => {
        const error = failure({ headers: { [name]: text } });
        expect(fieldsOf(error)).toEqual([`headers.${name.toLowerCase()}`]);
        expectNoValue(error, text);
      }),
      { numRuns: 200 },
    );
  });
});
