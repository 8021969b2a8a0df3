// How far apart requests arrived at a test's own server (host-site.ts's pages, a webhook receiver's
// deliveries), for the tests of a pace.
import { expect } from 'vitest';
import type { WorkerHandle } from '../support/worker.js';
import type { FixtureServer } from '../support/fixture-server.js';

// A page starts when the job lets its task go; it reaches the site once a browser page is open, which
// takes a varying time on a busy machine (up to ~350 ms seen here): two arrivals may come this much
// closer than their starts.
export const ARRIVAL_SLACK_MS = 500;

/** The gaps between consecutive requests, in ms. */
export function gapsBetween(requests: { at: number }[]): number[] {
  return requests.slice(1).map((request, i) => request.at - requests[i]!.at);
}

/** Each page request arrived at least `delayMs` (less the slack) after the one before. */
export function expectSpaced(requests: { path: string; at: number }[], delayMs: number): void {
  const gaps = gapsBetween(requests);
  for (const gap of gaps) expect(gap, JSON.stringify(gaps)).toBeGreaterThanOrEqual(delayMs - ARRIVAL_SLACK_MS);
  // Over the whole run the slack counts once.
  expect(requests.at(-1)!.at - requests[0]!.at).toBeGreaterThanOrEqual(gaps.length * delayMs - ARRIVAL_SLACK_MS);
}

/** A browser already running: the first page would otherwise reach the site a launch later than it started. */
export async function warmBrowser(worker: WorkerHandle, fixtures: FixtureServer): Promise<void> {
  expect((await worker.fetchPage({ url: fixtures.url('/site/docs/guide') })).status).toBe(200);
}
