// The private-network guard on the page's own requests with Chromium's own Local Network Access
// checks on, as they ship: the same public page as subresource-guard.test.ts (a Worker in a network
// namespace of its own, `*.rebind.example` resolving to 127.0.0.1), with WebSockets too, which CDP's
// Fetch domain never sees. Here nothing at all reaches the loopback host: the browser refuses a public
// page's connection to a private address before sending it, for sockets as for the rest.
import { describe, expect, it } from 'vitest';
import { fetchPublicPage, usePublicPageWorker } from '../support/public-page.js';

const ctx = usePublicPageWorker();

describe('private-network guard on the page own requests (with the browser checks)', () => {
  it('keeps a frame, fetch(), script, redirects and WebSockets from ever reaching loopback, and still returns the page', async () => {
    const { status, data } = await fetchPublicPage(ctx, '/guard/rebound', {
      wait_event: 'networkIdle',
      wait_ms: 15000,
    });
    expect(status).toBe(200);
    expect(data).toContain('<span id="public-script">public script ran</span>');
    for (const id of ['fetch', 'socket-name', 'socket-address']) expect(data).toContain(`<span id="${id}">refused</span>`);
    for (const id of ['frame', 'script', 'redirected-script', 'redirected-frame']) {
      expect(data).toContain(`<span id="${id}">nothing arrived</span>`);
    }
    expect(data).not.toMatch(/>LEAKED/);
    expect(data).not.toContain('SECRET-');
    // Not one request for the secret, socket handshakes included, reached the host.
    expect(ctx.fixtures.requests.map((request) => request.path).filter((path) => path.startsWith('/guard/secret'))).toEqual([]);
  });
});
