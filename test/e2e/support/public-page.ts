// The setup the guard's tests of a public page share (subresource-guard*.test.ts): a Worker in a
// network namespace of its own whose loopback also carries a public address, `site.example` resolving
// to that address and `*.rebind.example` to 127.0.0.1 (Chromium's --host-resolver-rules stands in for
// DNS), with the guard on; and a fetch of one of its pages read as html.
import { type E2eContext, useWorker } from './e2e-hooks.js';

const PUBLIC_ADDRESS = '11.0.0.1';

/** Registers the Worker; `chromiumFlags` are added to the resolver rules. */
export function usePublicPageWorker(chromiumFlags: string[] = []): E2eContext {
  return useWorker(async (fixtures) => ({
    vars: { ALLOW_PRIVATE_NETWORK: 'false' },
    isolatedNetwork: { publicAddress: PUBLIC_ADDRESS, fixturePort: Number(new URL(fixtures.origin).port) },
    chromiumFlags: [`--host-resolver-rules=MAP site.example ${PUBLIC_ADDRESS}, MAP *.rebind.example 127.0.0.1`, ...chromiumFlags],
  }));
}

/** The page at `path` on the public host, with the request's other `fields`: its status and html. */
export async function fetchPublicPage(ctx: E2eContext, path: string, fields: object): Promise<{ status: number; data: string }> {
  const port = new URL(ctx.fixtures.origin).port;
  const response = await ctx.worker.fetchPage({ url: `http://site.example:${port}${path}`, ...fields });
  const json = (await response.json()) as { data?: string };
  return { status: response.status, data: json.data ?? '' };
}
