// What of a URL reaches a log line or an error message (log-privacy.ts), and the causes the
// operator's log is written from (errors.ts causeText, the RPC seam's wire form).
import { describe, expect, it } from 'vitest';
import { navigationError } from '../../../src/browser/page/navigation-errors.js';
import { ApiError, causeText, fromWireError, toWireError } from '../../../src/errors.js';
import { urlForLog, visitOptions, withoutUrlSecrets } from '../../../src/shared/log-privacy.js';

describe('urlForLog', () => {
  it('keeps scheme, host, port and path, drops query, fragment and credentials', () => {
    expect(urlForLog('https://user:pa55@example.com:8443/a/b?token=SECRET#part')).toBe('https://example.com:8443/a/b');
    expect(urlForLog('http://127.0.0.1:9/x?token=SECRET')).toBe('http://127.0.0.1:9/x');
    expect(urlForLog('https://example.com')).toBe('https://example.com/');
  });

  it('answers a placeholder, not the text, for what does not parse', () => {
    expect(urlForLog('not a url ?token=SECRET')).toBe('(unparsable URL)');
  });
});

describe('withoutUrlSecrets', () => {
  it("cuts the query of the URL in puppeteer's navigation error", () => {
    expect(withoutUrlSecrets('net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/x?token=SECRET123&b=2')).toBe(
      'net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/x',
    );
  });

  it('cuts every URL a text quotes, whatever its scheme, and leaves the rest of the text', () => {
    expect(
      withoutUrlSecrets(
        'Failed to load "https://a.example/p?session=S1" then (wss://b.example/ws?key=S2), via http://u:S3@proxy.example:8080/.',
      ),
    ).toBe('Failed to load "https://a.example/p" then (wss://b.example/ws), via http://proxy.example:8080/.');
  });

  it('leaves a text that quotes no URL as it is', () => {
    expect(withoutUrlSecrets('Navigation timeout of 30000 ms exceeded')).toBe('Navigation timeout of 30000 ms exceeded');
  });
});

describe('causes for the log', () => {
  const refused = new Error('net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/x?token=SECRET123');

  it("logs a navigation failure's cause without the target's query, and its public message never names the URL", () => {
    const error = navigationError(refused);
    expect(error.code).toBe('target_unreachable');
    expect(causeText(error)).toBe('net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/x');
    expect(error.message).toBe('The target could not be reached (net::ERR_CONNECTION_REFUSED).');
  });

  it('carries the cut cause across the RPC seam, never the query', () => {
    const wire = toWireError(new ApiError('internal_error', undefined, { cause: refused }));
    expect(wire.cause).toBe('net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/x');
    expect(causeText(fromWireError(wire))).toBe('net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/x');
  });

  it('cuts a cause given as a plain string too', () => {
    expect(causeText(new ApiError('internal_error', undefined, { cause: 'fetch https://a.example/?k=SECRET failed' }))).toBe(
      'fetch https://a.example/ failed',
    );
  });
});

describe('visitOptions', () => {
  it('names the device, viewport, header names and a cookie count, never a value', () => {
    const options = visitOptions({
      device: 'mobile',
      viewport: { width: 412, height: 915 },
      headers: { authorization: 'Bearer header-secret' },
      cookies: [{ name: 'session', value: 'cookie-secret', domain: 'example.com' }],
    });
    expect(options).toEqual({ device: 'mobile', viewport: '412x915', headers: ['authorization'], cookies: 1 });
    expect(JSON.stringify(options)).not.toMatch(/secret/);
  });

  it('adds nothing for a control left as it is', () => {
    expect(visitOptions({ device: 'desktop' })).toEqual({});
    expect(visitOptions({ device: 'desktop', viewport: { width: 800, height: 600 } })).toEqual({ device: 'desktop', viewport: '800x600' });
  });
});
