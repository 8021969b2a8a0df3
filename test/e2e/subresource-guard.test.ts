// The private-network guard on the page's own requests, without a proxy: the Worker and its browsers
// run in a network namespace of their own (support/isolated-network.ts) whose loopback also carries a
// public address, so a page served from there is public, and `*.rebind.example` resolves to 127.0.0.1
// (Chromium's --host-resolver-rules stands in for DNS). Chromium's own Local Network Access checks
// are switched off, so what refuses here is the project's guard, not the browser's.
import { describe, expect, it } from 'vitest';
import { useWorker } from './support/e2e-hooks.js';

const PUBLIC_ADDRESS = '11.0.0.1';
const CHROMIUM_CHECKS = process.env.GUARD_KEEP_CHROMIUM_CHECKS === '1';

const ctx = useWorker(async (fixtures) => ({
  vars: { ALLOW_PRIVATE_NETWORK: 'false' },
  isolatedNetwork: { publicAddress: PUBLIC_ADDRESS, fixturePort: Number(new URL(fixtures.origin).port) },
  chromiumFlags: [
    `--host-resolver-rules=MAP site.example ${PUBLIC_ADDRESS}, MAP *.rebind.example 127.0.0.1`,
    ...(CHROMIUM_CHECKS
      ? []
      : [
          `--ip-address-space-overrides=${PUBLIC_ADDRESS}:${new URL(fixtures.origin).port}=loopback`,
        ]),
  ],
}));

const port = () => new URL(ctx.fixtures.origin).port;
const secretRequests = () => ctx.fixtures.requests.map((request) => request.path).filter((path) => path.includes('secret'));

describe('private-network guard on the page own requests', () => {
  it('serves a public page whose frame, fetch, script, redirects and WebSockets reach for loopback, and none of it gets through', async () => {
    const response = await ctx.worker.fetchPage({
      url: `http://site.example:${port()}/guard/rebound`,
      wait_event: 'networkIdle',
      wait_ms: 8000,
    });
    const json = (await response.json()) as { data?: string };
    console.log(response.status, json.data, JSON.stringify(secretRequests()));
    console.log(ctx.worker.logs().split('\n').filter((l) => /guard|refus/i.test(l)).join('\n'));
    expect(response.status).toBe(200);
  });
});
