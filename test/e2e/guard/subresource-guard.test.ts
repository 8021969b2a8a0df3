// The private-network guard on the page's own requests, without a proxy: the Worker and its browsers
// run in a network namespace of their own (support/isolated-network.ts) whose loopback also carries a
// public address, so a page served from there is public to the guard, and `*.rebind.example` resolves
// to 127.0.0.1 (Chromium's --host-resolver-rules stands in for DNS). Chromium's own Local Network
// Access checks only warn here (their LocalNetworkAccessChecksWarn parameter), so what refuses is the
// project's filter: without it the frame, fetch() and script below reach the page with the secret
// (checked by hand with the filter's address check switched off). WebSockets, which the filter never
// sees, are refused by URL in the page and its workers (in-page/socket-guard.ts; without that preload
// they connected and got the secret). subresource-guard-browser.test.ts has the browser's checks on,
// as they ship.
import { describe, expect, it } from 'vitest';
import { fetchPublicPage, usePublicPageWorker } from '../support/public-page.js';

const ctx = usePublicPageWorker(['--enable-features=LocalNetworkAccessChecks:LocalNetworkAccessChecksWarn/true']);

const requested = (path: string) => ctx.fixtures.requests.some((request) => request.path === path);

describe('private-network guard on the page own requests (the project filter)', () => {
  it('fails a frame, fetch(), script and redirects that reach loopback through a name or a redirect, and still returns the page', async () => {
    const { status, data } = await fetchPublicPage(ctx, '/guard/rebound?sockets=no', {
      wait_event: 'networkIdle',
      wait_ms: 15000,
    });
    expect(status).toBe(200);
    expect(data).toContain('<h1>Rebound page</h1>');
    // Judged like the others and let through: the page's own public script ran.
    expect(data).toContain('<span id="public-script">public script ran</span>');
    // The page saw a network error, and nothing of the answers reached it.
    expect(data).toContain('<span id="fetch">refused</span>');
    for (const id of ['frame', 'script', 'redirected-script', 'redirected-frame']) {
      expect(data).toContain(`<span id="${id}">nothing arrived</span>`);
    }
    expect(data).not.toMatch(/>LEAKED/);
    expect(data).not.toContain('SECRET-');
    // A redirect to a loopback address is refused by its URL, before the browser connects.
    expect(requested('/guard/secret?what=redirected-script')).toBe(false);
    // A name is only known to be private once connected: those requests reached the host (the
    // browser's own checks, off here, stop them before that), and their answers were failed.
    expect(requested('/guard/secret?what=fetch')).toBe(true);
    expect(requested('/guard/secret?what=script')).toBe(true);
  });

  it('answers a page that fetches one cacheable resource twice (the cache is off, so both answers are judged)', async () => {
    const { status, data } = await fetchPublicPage(ctx, '/guard/twice', {
      wait_event: 'networkIdle',
      wait_ms: 30000,
    });
    expect(status).toBe(200);
    expect(data).toContain('<p id="first">first: cached text</p>');
    expect(data).toContain('<p id="second">second: cached text</p>');
  });

  it('refuses WebSockets to loopback by address in the page, from its own constructor and a script-made frame, and lets a public one through', async () => {
    const { status, data } = await fetchPublicPage(ctx, '/guard/sockets', {
      wait_event: 'load',
      wait_for_selector: '#sockets-done',
      wait_ms: 15000,
    });
    expect(status).toBe(200);
    // Failed as a refused connection is: an error, then a close with 1006, and a closed WebSocket.
    for (const id of ['by-address', 'blank-frame']) {
      expect(data).toContain(`<span id="${id}">error, close 1006; state 3; instance true</span>`);
    }
    expect(data).not.toMatch(/>LEAKED/);
    // The handshakes never reached the host (the browser's own checks only warn here).
    expect(requested('/guard/secret-socket?by=address')).toBe(false);
    expect(requested('/guard/secret-socket?by=blank-frame')).toBe(false);
    // The page's own public host is not refused.
    expect(data).toContain('<span id="public">message arrived</span>');
    expect(requested('/guard/secret-socket?by=public')).toBe(true);
  });

  it('refuses WebSockets to loopback by address in dedicated workers (a script and a blob), and lets a public one through', async () => {
    const { status, data } = await fetchPublicPage(ctx, '/guard/socket-worker', {
      wait_event: 'load',
      wait_for_selector: '#workers-done',
      wait_ms: 15000,
    });
    expect(status).toBe(200);
    for (const id of ['worker', 'blob-worker']) {
      expect(data).toContain(`<p id="${id}">loopback: error, close 1006; state 3 | public: open, message, `);
      // The loopback socket never reached the host; the public one did.
      expect(requested(`/guard/secret-socket?by=${id}`)).toBe(false);
      expect(requested(`/guard/secret-socket?by=${id}-public`)).toBe(true);
    }
  });
});

describe('extra request headers with the guard on (every request already pauses)', () => {
  it("adds them to the public page's own requests, and the page's loads are judged as before", async () => {
    const before = ctx.fixtures.requests.length;
    const { status, data } = await fetchPublicPage(ctx, '/visit/probe?case=guard-headers', {
      wait_event: 'networkIdle',
      wait_ms: 15000,
      headers: { Authorization: 'Bearer guard-visit', 'X-Visit': 'guarded' },
    });
    expect(status).toBe(200);
    expect(data).toContain('<title>Visit probe</title>');
    const own = ctx.fixtures.requests.slice(before).filter((request) => /case=guard-headers|from=own-/.test(request.path));
    expect(own.map((request) => request.path).sort()).toEqual([
      '/visit/asset.js?from=own-fetch',
      '/visit/asset.js?from=own-script',
      '/visit/probe?case=guard-headers',
    ]);
    for (const request of own) {
      expect(request.headers.authorization).toBe('Bearer guard-visit');
      expect(request.headers['x-visit']).toBe('guarded');
    }
  });
});
