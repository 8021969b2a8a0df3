// The site operations with the private-network guard on (ALLOW_PRIVATE_NETWORK "false", as deployed),
// against the real Worker: a webhook receiver on a private address is refused like a target (400
// naming webhook.url), a crawl or map of a private start URL is 403 forbidden_target at once, and a
// batch's private URLs are recorded failed with forbidden_target, none of them loaded.
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';
import { TEST_TOKEN } from '../support/worker.js';
import { jobsClient } from './jobs-client.js';

const ctx = useWorker({ vars: { ALLOW_PRIVATE_NETWORK: 'false', WEBHOOK_SECRET: 'e2e-webhook-secret-5a2d', CRAWL_HOST_DELAY_MS: '1' } });
const jobs = jobsClient(() => ctx.worker.origin);
const site = (path: string) => ctx.fixtures.url(path);
const port = () => new URL(ctx.fixtures.origin).port;

async function errorOf(response: Response): Promise<{ status: number; code: string; fields: string[] }> {
  const json = (await response.json()) as { error: { code: string; details?: { field: string }[] } };
  return { status: response.status, code: json.error.code, fields: (json.error.details ?? []).map((detail) => detail.field) };
}

describe('site operations behind the private-network guard', () => {
  it('refuses a webhook on a private, loopback, link-local or metadata address: 400 naming webhook.url', async () => {
    const receivers = [
      site('/receiver'),
      `http://localhost:${port()}/receiver`,
      'http://10.0.0.7/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/hook',
    ];
    const before = ctx.fixtures.requests.length;
    for (const url of receivers) {
      for (const [path, body] of [
        ['/api/batch', { urls: ['https://example.com/'], webhook: { url } }],
        ['/api/crawl', { url: 'https://example.com/', webhook: { url } }],
      ] as const) {
        expect(await errorOf(await jobs.call('POST', path, body)), `${path} ${url}`).toEqual({
          status: 400,
          code: 'invalid_request',
          fields: ['webhook.url'],
        });
      }
    }
    expect(ctx.fixtures.requests.length).toBe(before);
  });

  it('answers a crawl or a map of a private start URL 403 forbidden_target, loading nothing', async () => {
    const before = ctx.fixtures.requests.length;
    for (const url of [site('/site/'), `http://localhost:${port()}/site/`]) {
      expect(await errorOf(await jobs.call('POST', '/api/crawl', { url })), url).toMatchObject({ status: 403, code: 'forbidden_target' });
      const map = await fetch(`${ctx.worker.origin}/api/map`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TEST_TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url }),
      });
      expect(await errorOf(map), url).toMatchObject({ status: 403, code: 'forbidden_target' });
    }
    expect(ctx.fixtures.requests.length).toBe(before);
  });

  it("records a batch's private URLs failed with forbidden_target, as /api/fetch answers them", async () => {
    const urls = [site('/site/docs/intro'), `http://localhost:${port()}/site/docs/guide`];
    const { job, records } = await jobs.finished(await jobs.start('/api/batch', { urls }));
    expect(job).toMatchObject({ status: 'completed', counts: { fetched: 0, failed: 2 } });
    for (const record of records) {
      expect(record).toMatchObject({ state: 'failed', status: null, data: null });
      expect(record.error?.code).toBe('forbidden_target');
    }
    expect(ctx.fixtures.requests.some((request) => request.path.startsWith('/site/'))).toBe(false);
  });
});
