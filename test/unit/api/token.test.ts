import { describe, expect, it } from 'vitest';
import { parseBearer, tokenFingerprint, tokenMatches } from '../../../src/api/token.js';

describe('parseBearer', () => {
  it.each([
    ['Bearer abc.DEF-123_~+/=', 'abc.DEF-123_~+/='],
    ['bearer abc', 'abc'],
    ['BEARER   abc  ', 'abc'],
  ])('reads the token of %j', (header, token) => {
    expect(parseBearer(header)).toBe(token);
  });

  it.each([undefined, null, '', 'Bearer', 'Bearer ', 'Basic abc', 'Bearer a b', 'Bearer a,b', 'Bearer =abc', 'Bearerabc'])(
    'rejects %j',
    (header) => {
      expect(parseBearer(header)).toBeUndefined();
    },
  );
});

describe('tokenMatches', () => {
  it('accepts any configured token', async () => {
    expect(await tokenMatches('b', ['a', 'b'])).toBe(true);
    expect(await tokenMatches('a', ['a', 'b'])).toBe(true);
  });

  it('rejects prefixes, extensions and other tokens', async () => {
    for (const presented of ['', 'ab', 'tok', 'token-x', 'TOKEN']) {
      expect(await tokenMatches(presented, ['token'])).toBe(false);
    }
  });

  it('rejects everything when no token is configured', async () => {
    expect(await tokenMatches('token', [])).toBe(false);
  });
});

describe('tokenFingerprint', () => {
  it('is short, stable and does not contain the token', async () => {
    const fingerprint = await tokenFingerprint('my-secret-token');
    expect(fingerprint).toMatch(/^[0-9a-f]{12}$/);
    expect(await tokenFingerprint('my-secret-token')).toBe(fingerprint);
    expect(await tokenFingerprint('other-token')).not.toBe(fingerprint);
  });
});
