// The job endpoints (docs/api.md "Sites"): POST /api/crawl and POST /api/batch start a job, GET /api/jobs/<id> reads it a
// page of records at a time, DELETE cancels it; all behind the same bearer auth and rate limit as
// /api/fetch. A job is seen only by the token that started it: any other token gets the same 404 as
// a job that does not exist.
import { type Context, Hono } from 'hono';
import { bearerAuth } from '../api/auth.js';
import { fleetDirectoryName } from '../api/fetch-page.js';
import { parseFetchRequest } from '../api/fetch-request.js';
import type { AppEnv } from '../api/app-env.js';
import { readJsonBody } from '../api/json-body.js';
import { rateLimit } from '../api/rate-limit.js';
import { ApiError } from '../errors.js';
import { targetGuard } from '../guard/policy.js';
import { parseBatchRequest, parseCrawlRequest } from './job-request.js';
import type { CrawlSpec, JobKind, JobSpec, JsonObject, StoredPageRecord, WebhookSpec } from '../shared/job-rpc.js';

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CURSOR = /^\d{1,15}$/;
/** Retry-After of a token at MAX_JOBS_PER_TOKEN: a job takes at least this long. */
const JOBS_RETRY_AFTER_S = 30;

const noSuchJob = () => new ApiError('not_found', 'No such job.');

function jobStub(c: Context<AppEnv>, id: string) {
  if (!JOB_ID.test(id)) throw noSuchJob();
  return c.env.SITE_JOB.get(c.env.SITE_JOB.idFromName(id));
}

/** Starts a job for the request's token and returns its id. @throws ApiError 429 when the token runs MAX_JOBS_PER_TOKEN already. */
export async function startJob(
  c: Context<AppEnv>,
  kind: JobKind,
  urls: string[],
  page: JsonObject,
  extra: { crawl?: CrawlSpec; webhook?: WebhookSpec },
): Promise<string> {
  const { sites } = c.get('config');
  const owner = c.get('tokenFingerprint');
  const id = crypto.randomUUID();
  const createdAt = Date.now();
  const expiresAt = createdAt + sites.jobRetentionS * 1000;
  const ledger = c.env.JOB_LEDGER.get(c.env.JOB_LEDGER.idFromName(owner));
  if (!(await ledger.reserve(id, sites.maxJobsPerToken, expiresAt))) {
    throw new ApiError('rate_limited', `This token already runs ${sites.maxJobsPerToken} jobs.`, {
      headers: { 'Retry-After': String(JOBS_RETRY_AFTER_S) },
    });
  }
  const spec: JobSpec = {
    id,
    kind,
    owner,
    createdAt,
    page,
    urls,
    retentionS: sites.jobRetentionS,
    hostDelayMs: sites.crawlHostDelayMs,
    hostConcurrency: sites.crawlHostConcurrency,
    fleet: fleetDirectoryName(parseFetchRequest({ ...page, url: urls[0] }, c.get('config'))),
    ...(extra.crawl === undefined ? {} : { crawl: extra.crawl }),
    ...(extra.webhook === undefined ? {} : { webhook: extra.webhook }),
  };
  await jobStub(c, id).start(spec);
  return id;
}

/** The 202 a started job is answered with. */
function started(c: Context<AppEnv>, id: string): Response {
  const url = `/api/jobs/${id}`;
  c.header('Location', url);
  c.header('Cache-Control', 'no-store');
  return c.json({ id, url }, 202);
}

/** A record as the caller reads it: its content from R2 when it was kept there. */
async function answerRecord(c: Context<AppEnv>, record: StoredPageRecord): Promise<Omit<StoredPageRecord, 'dataKey'>> {
  const { dataKey, ...rest } = record;
  if (dataKey === undefined) return rest;
  const object = await c.env.JOB_PAGES.get(dataKey);
  return { ...rest, data: object === null ? null : await object.text() };
}

export function jobRoutes() {
  const routes = new Hono<AppEnv>();
  routes.post('/api/batch', bearerAuth(), rateLimit(), async (c) => {
    const request = parseBatchRequest(await readJsonBody(c.req.raw), c.get('config'));
    return started(c, await startJob(c, 'batch', request.urls, request.page, { webhook: request.webhook }));
  });
  routes.post('/api/crawl', bearerAuth(), rateLimit(), async (c) => {
    const config = c.get('config');
    const request = parseCrawlRequest(await readJsonBody(c.req.raw), config);
    // The start URL is refused before the job exists, as /api/fetch refuses it.
    targetGuard({ allowPrivateNetwork: config.allowPrivateNetwork }).assertUrlAllowed(request.url);
    const id = await startJob(c, 'crawl', [request.url], request.page, {
      crawl: { ...request.crawl, allowPrivateNetwork: config.allowPrivateNetwork },
      webhook: request.webhook,
    });
    return started(c, id);
  });
  routes.all('/api/crawl', () => {
    throw new ApiError('method_not_allowed', undefined, { headers: { Allow: 'POST' } });
  });
  routes.all('/api/batch', () => {
    throw new ApiError('method_not_allowed', undefined, { headers: { Allow: 'POST' } });
  });

  routes.get('/api/jobs/:id', bearerAuth(), rateLimit(), async (c) => {
    const answer = await readJob(c, c.req.param('id'), c.req.query('cursor'));
    c.header('Cache-Control', 'no-store');
    return c.json(answer);
  });
  routes.delete('/api/jobs/:id', bearerAuth(), rateLimit(), async (c) => {
    const view = await jobStub(c, c.req.param('id')).cancel(c.get('tokenFingerprint'));
    if (view === undefined) throw noSuchJob();
    c.header('Cache-Control', 'no-store');
    return c.json(view);
  });
  routes.all('/api/jobs/:id', () => {
    throw new ApiError('method_not_allowed', undefined, { headers: { Allow: 'GET, DELETE' } });
  });
  return routes;
}

/** One answer of GET /api/jobs/<id> for the request's token. @throws ApiError not_found, invalid_request (cursor). */
export async function readJob(c: Context<AppEnv>, id: string, cursor: string | undefined): Promise<Record<string, unknown>> {
  if (cursor !== undefined && !CURSOR.test(cursor)) {
    throw new ApiError('invalid_request', 'The request has invalid fields.', {
      details: [{ field: 'cursor', message: 'must be a next_cursor this endpoint answered' }],
    });
  }
  const page = await jobStub(c, id).read(c.get('tokenFingerprint'), Number(cursor ?? 0), c.get('config').sites.jobPageBytes);
  if (page === undefined) throw noSuchJob();
  const pages: unknown[] = await Promise.all(page.records.map((record) => answerRecord(c, JSON.parse(record) as StoredPageRecord)));
  return { ...page.job, pages, next_cursor: page.nextCursor };
}
