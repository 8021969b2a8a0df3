// POST /api/map in the app with a fake env: the guard refuses a private start URL before robots.txt,
// a sitemap or a browser is asked for anything; the request's defaults. The whole map runs in
// test/e2e/sites/map.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../src/api/app.js';
import { parseMapRequest } from '../../../src/api/map/map-request.js';
import type { Env } from '../../../src/env.js';

const TOKEN = 'unit-test-token';

afterEach(() => vi.restoreAllMocks());

describe('POST /api/map', () => {
  it.each(['http://127.0.0.1/', 'http://169.254.169.254/latest/', 'http://[::1]/'])(
    'answers 403 forbidden_target for %s before anything is fetched',
    async (url) => {
      vi.spyOn(console, 'log').mockImplementation(() => undefined);
      const fetchSpy = vi.spyOn(globalThis, 'fetch');
      const admit = vi.fn();
      const env = {
        API_TOKENS: TOKEN,
        ALLOW_PRIVATE_NETWORK: 'false',
        BROWSER_DIRECTORY: { idFromName: () => 'id', get: () => ({ admit }) } as unknown as Env['BROWSER_DIRECTORY'],
      } satisfies Partial<Env>;
      const response = await createApp().request(
        '/api/map',
        {
          method: 'POST',
          headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ url }),
        },
        env,
      );
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('forbidden_target');
      expect(fetchSpy).not.toHaveBeenCalled();
      expect(admit).not.toHaveBeenCalled();
    },
  );
});

describe('parseMapRequest', () => {
  it('applies the defaults, null meaning absent', () => {
    expect(parseMapRequest({ url: 'https://example.com/', limit: null, search: null })).toEqual({
      url: 'https://example.com/',
      limit: 1000,
      includeSubdomains: false,
      sitemap: 'include',
    });
  });

  it('takes a blank search as none', () => {
    expect(parseMapRequest({ url: 'https://example.com/', search: '  ' }).search).toBeUndefined();
    expect(parseMapRequest({ url: 'https://example.com/', search: ' docs ' }).search).toBe('docs');
  });
});
