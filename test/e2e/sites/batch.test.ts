// POST /api/batch and GET/DELETE /api/jobs/<id> against the real Worker under wrangler dev, with the
// real local Durable Objects, Queue and R2: pages through the same fetch as /api/fetch, records in
// order with their errors, content kept in R2 when large, cursor paging by JOB_PAGE_BYTES, token
// isolation, MAX_JOBS_PER_TOKEN, cancel, retention, a task that keeps failing recorded from the
// dead-letter queue, and every bad input (a webhook without WEBHOOK_SECRET among them).
import { describe, expect, it } from 'vitest';
import { closedPort } from '../support/fixture-server.js';
import { useWorker } from '../support/e2e-hooks.js';
import { TEST_TOKEN } from '../support/worker.js';
import { jobsClient } from './jobs-client.js';

const OTHER_TOKEN = 'e2e-other-token-7d21c4';
const PAGE_BYTES = 6000;
const RETENTION_S = 45;
/** Page tasks whose URL holds this throw before they report (src/jobs/task-fault.ts). */
const TASK_FAULT = 'task-fault-9c1e';

const ctx = useWorker({
  vars: {
    API_TOKENS: `${TEST_TOKEN},${OTHER_TOKEN}`,
    CRAWL_HOST_DELAY_MS: '1',
    // Above the queue's batch of 8, so a cancelled job has tasks sent that never start.
    CRAWL_HOST_CONCURRENCY: '16',
    MAX_JOBS_PER_TOKEN: '2',
    MAX_BATCH_URLS: '10',
    JOB_PAGE_BYTES: String(PAGE_BYTES),
    JOB_RETENTION_S: String(RETENTION_S),
    TEST_PAGE_TASK_FAULT: TASK_FAULT,
  },
});
const jobs = jobsClient(() => ctx.worker.origin);
const site = (path: string) => ctx.fixtures.url(path);

describe('POST /api/batch', () => {
  it('fetches each distinct URL once through the fetch pipeline, records failures, pages by JOB_PAGE_BYTES', async () => {
    const unreachable = `http://127.0.0.1:${await closedPort()}/nothing`;
    const urls = [
      site('/site/docs/intro'),
      site('/site/docs/intro#again'),
      site('/site/docs/guide'),
      site('/big?bytes=100000'),
      unreachable,
      site('/status/404'),
      site('/site/blog/first'),
    ];
    const id = await jobs.start('/api/batch', { urls, page: { output_format: 'markdown', include_metadata: true } });
    const { job, records, answers } = await jobs.finished(id);

    expect(job).toMatchObject({ id, kind: 'batch', status: 'completed' });
    expect(Date.parse(job.created_at)).toBeGreaterThan(Date.now() - 120_000);
    expect(job.counts).toEqual({ queued: 0, fetched: 5, failed: 1, blocked: 0, skipped: 0, disallowed: 0 });
    expect(records.map((record) => record.url).sort()).toEqual(urls.filter((url) => !url.endsWith('#again')).sort());

    const intro = records.find((record) => record.url === site('/site/docs/intro'))!;
    expect(intro).toMatchObject({ state: 'fetched', depth: 0, final_url: site('/site/docs/intro'), status: 200 });
    expect(intro.data).toContain('# Introduction');
    expect(intro.metadata).toMatchObject({ title: 'Introduction' });
    // A target's 404 is a page, as in /api/fetch.
    expect(records.find((record) => record.url === site('/status/404'))).toMatchObject({ state: 'fetched', status: 404 });
    // Large content comes back whole (kept in R2).
    const big = records.find((record) => record.url === site('/big?bytes=100000'))!;
    expect(big.state).toBe('fetched');
    expect(big.data!.length).toBeGreaterThan(90_000);
    expect(big.data).toContain('end of big page');
    const failed = records.find((record) => record.url === unreachable)!;
    expect(failed).toMatchObject({ state: 'failed', status: null, data: null, final_url: null });
    expect(failed.error?.code).toBe('target_unreachable');

    // Several answers, each within JOB_PAGE_BYTES unless it holds one record alone.
    expect(answers.length).toBeGreaterThan(1);
    for (const answer of answers) {
      const bytes = answer.pages.reduce((sum, page) => sum + Buffer.byteLength(JSON.stringify(page)), 0);
      if (answer.pages.length > 1) expect(bytes).toBeLessThanOrEqual(PAGE_BYTES);
    }
    expect(answers.at(-1)!.next_cursor).toBeNull();
  });

  it('records a bot wall blocked with its vendor and kind, not fetched (docs/api.md "Blocked pages")', async () => {
    const wall = site('/blocked/perimeterx');
    const page = site('/site/docs/intro');
    const id = await jobs.start('/api/batch', { urls: [wall, page] });
    const { job, records } = await jobs.finished(id);
    expect(job.counts).toEqual({ queued: 0, fetched: 1, failed: 0, blocked: 1, skipped: 0, disallowed: 0 });
    expect(records.find((record) => record.url === wall)).toMatchObject({
      state: 'blocked',
      status: 403,
      blocked: { vendor: 'perimeterx', kind: 'captcha' },
    });
    expect(records.find((record) => record.url === page)).toMatchObject({ state: 'fetched', status: 200 });
    expect(records.find((record) => record.url === page)).not.toHaveProperty('blocked');
  });

  it('records failed, from the dead-letter queue, a page whose task keeps failing; the job goes on and completes', {
    timeout: 120_000,
  }, async () => {
    const lost = site(`/site/docs/guide?${TASK_FAULT}`);
    const page = site('/site/docs/api');
    const id = await jobs.start('/api/batch', { urls: [lost, page] });
    const { job, records } = await jobs.finished(id);
    expect(job).toMatchObject({ status: 'completed', counts: { queued: 0, fetched: 1, failed: 1, blocked: 0, skipped: 0, disallowed: 0 } });
    expect(records.find((record) => record.url === page)).toMatchObject({ state: 'fetched', status: 200 });
    expect(records.find((record) => record.url === lost)).toMatchObject({
      state: 'failed',
      status: null,
      data: null,
      error: { code: 'internal_error', message: 'The page could not be fetched.' },
    });
    // Tried once and retried max_retries (3, wrangler.toml) times by the queue before the dead-letter queue.
    const failures = ctx.worker
      .logs()
      .split('\n')
      .filter((line) => line.includes('"event":"page_task_failed"') && line.includes(id));
    expect(failures).toHaveLength(4);
    expect(ctx.fixtures.requests.some((request) => request.path.includes(TASK_FAULT))).toBe(false);
  });

  it('shows a job only to the token that started it', async () => {
    const id = await jobs.start('/api/batch', { urls: [site('/site/docs/api')] });
    for (const method of ['GET', 'DELETE']) {
      const response = await jobs.call(method, `/api/jobs/${id}`, undefined, OTHER_TOKEN);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
    await jobs.finished(id);
    expect((await jobs.call('GET', '/api/jobs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await jobs.call('GET', '/api/jobs/not-a-job')).status).toBe(404);
  });

  it('runs at most MAX_JOBS_PER_TOKEN jobs per token; a cancelled job frees its place and keeps its status', async () => {
    const slow = (n: number) => site(`/slow-doc?ms=6000&n=${n}`);
    const first = await jobs.start('/api/batch', { urls: [slow(1), slow(2), slow(3)] });
    const second = await jobs.start('/api/batch', { urls: [slow(4)] });
    const refused = await jobs.call('POST', '/api/batch', { urls: [site('/site/docs/api')] });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    // Another token has its own places.
    const others = await jobs.start('/api/batch', { urls: [site('/site/docs/api')] }, OTHER_TOKEN);
    expect(others).toBeTruthy();

    const cancelled = await jobs.call('DELETE', `/api/jobs/${first}`);
    expect(cancelled.status).toBe(200);
    const view = (await cancelled.json()) as Record<string, unknown>;
    expect(view).toMatchObject({ id: first, kind: 'batch', status: 'cancelled' });
    expect(view).not.toHaveProperty('pages');
    const third = await jobs.start('/api/batch', { urls: [site('/site/docs/api')] });
    expect((await jobs.finished(first)).job.status).toBe('cancelled');
    const { job } = await jobs.finished(third);
    expect(job.status).toBe('completed');
    // A finished job keeps its status when cancelled.
    expect(((await (await jobs.call('DELETE', `/api/jobs/${third}`)).json()) as { status: string }).status).toBe('completed');
    await jobs.call('DELETE', `/api/jobs/${second}`);
  });

  it('after a cancel, tasks sent but not started leave the queued count, and the counts add up to the records', {
    timeout: 120_000,
  }, async () => {
    const urls = Array.from({ length: 10 }, (_, n) => site(`/slow-doc?ms=2000&n=cancel-${n}`));
    const id = await jobs.start('/api/batch', { urls });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await jobs.call('DELETE', `/api/jobs/${id}`)).status).toBe(200);
    // Within JOB_RETENTION_S of the cancel, which deletes the job.
    const deadline = Date.now() + 35_000;
    let answer = await jobs.finished(id);
    while (answer.job.counts.queued !== 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      answer = await jobs.finished(id);
    }
    const { job, records } = answer;
    expect(job.status).toBe('cancelled');
    expect(job.counts.queued).toBe(0);
    const { queued: _, ...decided } = job.counts;
    expect(Object.values(decided).reduce((sum, n) => sum + n, 0)).toBe(records.length);
    // The queue hands over at most 8 at once: the rest never started.
    expect(records.length).toBeLessThanOrEqual(8);
  });

  it('answers 400 naming each bad field, before any target is loaded', async () => {
    const before = ctx.fixtures.requests.length;
    const good = site('/site/docs/api');
    const cases: [unknown, string[]][] = [
      [{}, ['urls']],
      [{ urls: [] }, ['urls']],
      [{ urls: good }, ['urls']],
      [{ urls: [good, 'ftp://example.com/', 7] }, ['urls[1]', 'urls[2]']],
      [{ urls: Array.from({ length: 11 }, (_, i) => `${good}?n=${i}`) }, ['urls']],
      [{ urls: [good], page: 'markdown' }, ['page']],
      [{ urls: [good], page: { output_format: 'pdf', wait_ms: -1 } }, ['page.output_format', 'page.wait_ms']],
      [{ urls: [good], page: { url: good, raw: true } }, ['page.url', 'page.raw']],
      [{ urls: [good], page: { proxy_name: 'nope' } }, ['page.proxy_name']],
      [{ urls: [good], extra: 1 }, ['extra']],
      // This deployment has no WEBHOOK_SECRET: a webhook it could not sign is refused.
      [{ urls: [good], webhook: { url: site('/receiver') } }, ['webhook']],
    ];
    await jobs.expectFieldErrors('/api/batch', cases);
    const badCursor = await jobs.call('GET', '/api/jobs/00000000-0000-4000-8000-000000000000?cursor=abc');
    expect(badCursor.status).toBe(400);
    expect(((await badCursor.json()) as { error: { details: { field: string }[] } }).error.details[0]!.field).toBe('cursor');
    expect(ctx.fixtures.requests.length).toBe(before);
  });

  it('needs a token and the right method', async () => {
    expect((await jobs.call('POST', '/api/batch', { urls: [site('/site/')] }, 'wrong-token')).status).toBe(401);
    expect((await jobs.call('GET', '/api/batch')).headers.get('Allow')).toBe('POST');
    const put = await jobs.call('PUT', '/api/jobs/00000000-0000-4000-8000-000000000000');
    expect(put.status).toBe(405);
    expect(put.headers.get('Allow')).toBe('GET, DELETE');
  });

  it('deletes a job and its pages once JOB_RETENTION_S has passed', { timeout: 150_000 }, async () => {
    const id = await jobs.start('/api/batch', { urls: [site('/big?bytes=80000')] });
    const { job } = await jobs.finished(id);
    expect(job.status).toBe('completed');
    const expiresAt = Date.parse(job.created_at) + RETENTION_S * 1000;
    let status = 200;
    while (Date.now() < expiresAt + 30_000) {
      status = (await jobs.call('GET', `/api/jobs/${id}`)).status;
      if (status === 404) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(status).toBe(404);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
  });
});
