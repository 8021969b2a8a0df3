// Job webhooks against the real Worker and its local Durable Objects and Queue: a fixture receiver on
// 127.0.0.1 checks each event's HMAC-SHA256 signature under WEBHOOK_SECRET, refuses the first delivery
// (it is tried again: at least once), sees the events asked for, and refuses one path's first
// deliveries to time the tries after 1, 4 and 16 s (src/jobs/webhook.ts).
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';
import { jobsClient } from './jobs-client.js';
import { gapsBetween } from './page-spacing.js';

const SECRET = 'e2e-webhook-secret-91f3';
const ctx = useWorker({ vars: { CRAWL_HOST_DELAY_MS: '1', WEBHOOK_SECRET: SECRET } });
const jobs = jobsClient(() => ctx.worker.origin);
const site = (path: string) => ctx.fixtures.url(path);

interface Delivery {
  path: string;
  body: string;
  signature: string | undefined;
}

const deliveries: Delivery[] = [];
/** Every request to REFUSING_PATH, refused or not, with its epoch ms. */
const refusingArrivals: (Delivery & { at: number })[] = [];
/** A path whose first REFUSALS deliveries are answered 500. */
const REFUSING_PATH = '/refused-thrice';
const REFUSALS = 3;
/** The waits before the second, third and fourth tries of a delivery (docs/sites.md "How a job runs"). */
const DELIVERY_BACKOFF_MS = [1000, 4000, 16_000];
let refusedFirst = false;
let receiver: Server;
let receiverOrigin: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const delivery = { path: req.url ?? '', body, signature: req.headers['x-page-fetch-signature'] as string | undefined };
      if (delivery.path === REFUSING_PATH) {
        refusingArrivals.push({ ...delivery, at: Date.now() });
        res.writeHead(refusingArrivals.length <= REFUSALS ? 500 : 204).end();
        return;
      }
      if (!refusedFirst) {
        refusedFirst = true;
        res.writeHead(500).end();
        return;
      }
      deliveries.push(delivery);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

function expectSigned(delivery: Delivery): void {
  expect(delivery.signature).toBe(`sha256=${createHmac('sha256', SECRET).update(delivery.body).digest('hex')}`);
}

async function eventsFor(
  path: string,
  until: (types: string[]) => boolean,
): Promise<{ type: string; id: string; metadata: unknown; data?: unknown }[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const mine = deliveries.filter((delivery) => delivery.path === path);
    for (const delivery of mine) {
      expectSigned(delivery);
    }
    const events = mine.map((delivery) => JSON.parse(delivery.body) as { type: string; id: string; metadata: unknown; data?: unknown });
    if (until(events.map((event) => event.type)) || Date.now() > deadline) return events;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

describe('webhooks', () => {
  it('posts signed started, page and completed events, at least once (a refused delivery is tried again)', {
    timeout: 120_000,
  }, async () => {
    const urls = [site('/site/docs/intro'), site('/site/docs/guide')];
    const id = await jobs.start('/api/batch', { urls, webhook: { url: `${receiverOrigin}/all`, metadata: { run: 7 } } });
    await jobs.finished(id);
    const events = await eventsFor(
      '/all',
      (types) => types.includes('completed') && types.includes('started') && types.filter((type) => type === 'page').length >= 2,
    );
    expect(refusedFirst).toBe(true);
    const types = events.map((event) => event.type);
    expect(types).toContain('started');
    expect(types).toContain('completed');
    expect(types.filter((type) => type === 'page')).toHaveLength(2);
    for (const event of events) {
      expect(event.id).toBe(id);
      expect(event.metadata).toEqual({ run: 7 });
    }
    const pages = events
      .filter((event) => event.type === 'page')
      .map((event) => event.data as { url: string; state: string; data?: unknown });
    expect(pages.map((page) => page.url).sort()).toEqual([...urls].sort());
    expect(pages.every((page) => page.state === 'fetched' && page.data === undefined)).toBe(true);
    expect(events.find((event) => event.type === 'completed')?.data).toMatchObject({ status: 'completed', counts: { fetched: 2 } });
  });

  it('posts only the events asked for; a crawl that fails says so', { timeout: 120_000 }, async () => {
    const id = await jobs.start('/api/crawl', {
      url: site('/site/private/x'),
      webhook: { url: `${receiverOrigin}/failed-only`, events: ['failed', 'completed'] },
    });
    expect((await jobs.finished(id)).job.status).toBe('failed');
    const events = await eventsFor('/failed-only', (types) => types.includes('failed'));
    expect(events.map((event) => event.type)).toEqual(['failed']);
    expect(events[0]).toMatchObject({ id, metadata: null, data: { status: 'failed' } });
  });

  it('tries a refused delivery again after 1 s, 4 s, then 16 s, the same signed body each time, until the receiver takes it', {
    timeout: 120_000,
  }, async () => {
    const id = await jobs.start('/api/batch', {
      urls: [site('/site/docs/intro')],
      webhook: { url: `${receiverOrigin}${REFUSING_PATH}`, events: ['completed'] },
    });
    expect((await jobs.finished(id)).job.status).toBe('completed');
    const deadline = Date.now() + 90_000;
    while (refusingArrivals.length <= REFUSALS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 300));
    // Taken at the fourth try. A fifth would come 64 s later, past this test's wait: the wait shows only
    // that no delivery follows the 2xx at once.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(refusingArrivals).toHaveLength(REFUSALS + 1);
    for (const arrival of refusingArrivals) {
      expectSigned(arrival);
      expect(arrival.body).toBe(refusingArrivals[0]!.body);
    }
    expect(JSON.parse(refusingArrivals[0]!.body)).toMatchObject({ type: 'completed', id, data: { status: 'completed' } });
    // Each try comes its backoff after the refusal before it, at least.
    const gaps = gapsBetween(refusingArrivals);
    for (const [i, backoffMs] of DELIVERY_BACKOFF_MS.entries()) expect(gaps[i], JSON.stringify(gaps)).toBeGreaterThanOrEqual(backoffMs);
  });

  it('answers 400 naming each bad webhook field', async () => {
    const before = ctx.fixtures.requests.length;
    const urls = [site('/site/docs/api')];
    await jobs.expectFieldErrors('/api/batch', [
      [{ urls, webhook: 'http://example.com/' }, ['webhook']],
      [{ urls, webhook: {} }, ['webhook.url']],
      [{ urls, webhook: { url: 'ftp://example.com/' } }, ['webhook.url']],
      [{ urls, webhook: { url: `${receiverOrigin}/x`, events: ['finished'] } }, ['webhook.events[0]']],
      [{ urls, webhook: { url: `${receiverOrigin}/x`, metadata: 'x'.repeat(5000) } }, ['webhook.metadata']],
      [{ urls, webhook: { url: `${receiverOrigin}/x`, secret: 'mine' } }, ['webhook.secret']],
    ]);
    expect(ctx.fixtures.requests.length).toBe(before);
  });
});
