import { describe, expect, it } from 'vitest';
import { navigationError, netErrorName } from '../../../../src/browser/page/navigation-errors.js';

describe('navigationError', () => {
  it.each([
    ['net::ERR_NAME_NOT_RESOLVED at https://nope.invalid/', 'target_unreachable'],
    ['net::ERR_CONNECTION_REFUSED at http://127.0.0.1:1/', 'target_unreachable'],
    ['net::ERR_CERT_AUTHORITY_INVALID at https://self-signed/', 'target_unreachable'],
    ['net::ERR_CONNECTION_RESET at http://x/', 'target_unreachable'],
    ['net::ERR_TIMED_OUT at http://x/', 'target_timeout'],
    ['net::ERR_CONNECTION_TIMED_OUT at http://x/', 'target_timeout'],
  ])('maps %s to %s and names the net error', (message, code) => {
    const error = navigationError(new Error(message));
    expect(error.code).toBe(code);
    expect(error.message).toContain(netErrorName(new Error(message)));
  });

  it.each(['ERR_PROXY_CONNECTION_FAILED', 'ERR_TUNNEL_CONNECTION_FAILED', 'ERR_PROXY_AUTH_UNSUPPORTED', 'ERR_INVALID_AUTH_CREDENTIALS'])(
    'maps %s through an upstream proxy to proxy_error naming the proxy',
    (name) => {
      const error = navigationError(new Error(`net::${name} at http://x/`), 'resi');
      expect(error.code).toBe('proxy_error');
      expect(error.message).toContain('"resi"');
    },
  );

  it.each(['ERR_CONNECTION_RESET', 'ERR_EMPTY_RESPONSE', 'ERR_CONNECTION_CLOSED'])(
    'maps the connection failure %s through a proxy to proxy_error (the connection is to the proxy)',
    (name) => {
      expect(navigationError(new Error(`net::${name} at http://x/`), 'dc').code).toBe('proxy_error');
      expect(navigationError(new Error(`net::${name} at http://x/`)).code).toBe('target_unreachable');
    },
  );

  it('maps a proxy-looking error without a proxy to target_unreachable', () => {
    expect(navigationError(new Error('net::ERR_TUNNEL_CONNECTION_FAILED at http://x/')).code).toBe('target_unreachable');
  });

  it('maps an error that is not a net error to internal_error', () => {
    expect(navigationError(new Error('Protocol error: Target closed')).code).toBe('internal_error');
  });
});
