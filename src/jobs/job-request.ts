// The bodies that start a job (docs/api.md "Sites"): POST /api/batch's `urls` and the `page` fields
// every page is fetched with — every /api/fetch field but `url` and `raw`, judged by the same schema
// and egress rules, each failing one named `page.<field>`. Pure: no Hono, no Workers APIs.
import { z } from 'zod';
import { fetchRequestSchema, MAX_URL_LENGTH, schemaIssues, validateBody } from '../api/fetch-request.js';
import type { Config } from '../api/config.js';
import { ApiError, type FieldIssue } from '../errors.js';
import { MAX_GLOBS } from '../sites/path-glob.js';
import { normalizeUrl, parseHttpUrl } from '../sites/url-normal-form.js';
import { SITEMAP_MODES } from '../api/map/map-request.js';
import type { CrawlSpec, JsonObject, WebhookSpec } from '../shared/job-rpc.js';
import { WEBHOOK_EVENTS } from './webhook.js';
import { targetGuard } from '../guard/policy.js';

export interface BatchRequest {
  /** The distinct URLs (by normal form), first spelling kept, in order. */
  urls: string[];
  page: JsonObject;
  webhook?: WebhookSpec;
}

function requireObject(json: unknown): Record<string, unknown> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ApiError('malformed_json', 'The request body must be a JSON object.');
  }
  return json as Record<string, unknown>;
}

/** The `page` fields' issues, each named under `page.`; the fields themselves when valid. */
export function pageFieldIssues(page: unknown, config: Config): { page: JsonObject; issues: FieldIssue[] } {
  if (page === undefined || page === null) return { page: {}, issues: [] };
  if (typeof page !== 'object' || Array.isArray(page))
    return { page: {}, issues: [{ field: 'page', message: 'must be an object of /api/fetch fields' }] };
  const schema = fetchRequestSchema(config).omit({ url: true, raw: true });
  try {
    validateBody(page, schema, config);
    return { page: page as JsonObject, issues: [] };
  } catch (error) {
    const details = error instanceof ApiError ? (error.details ?? []) : [];
    return { page: {}, issues: details.map((issue) => ({ field: `page.${issue.field}`, message: issue.message })) };
  }
}

/** Bytes of the webhook's `metadata` as JSON at most: it travels with every event. */
export const MAX_WEBHOOK_METADATA_BYTES = 4096;

function webhookSchema() {
  return z
    .strictObject(
      {
        url: z
          .string({ message: 'is required and must be a string' })
          .max(MAX_URL_LENGTH, { message: `must be at most ${MAX_URL_LENGTH} characters` })
          .refine((url) => parseHttpUrl(url) !== undefined, { message: 'must be an absolute http: or https: URL' }),
        events: z
          .array(z.enum(WEBHOOK_EVENTS, { message: `must be one of ${WEBHOOK_EVENTS.map((event) => `"${event}"`).join(', ')}` }), {
            message: 'must be an array of events',
          })
          .nullish(),
        metadata: z
          .json({ message: 'must be JSON' })
          .refine((value) => new TextEncoder().encode(JSON.stringify(value)).length <= MAX_WEBHOOK_METADATA_BYTES, {
            message: `must be at most ${MAX_WEBHOOK_METADATA_BYTES} bytes of JSON`,
          })
          .nullish(),
      },
      { message: 'must be an object with a url' },
    )
    .nullish();
}

/** The webhook's own rules past its schema: a secret to sign with, a receiver the guard allows. */
function webhookIssues(webhook: { url: string } | null | undefined, config: Config): FieldIssue[] {
  if (webhook === null || webhook === undefined) return [];
  if (config.sites.webhookSecret === undefined) {
    return [{ field: 'webhook', message: 'needs WEBHOOK_SECRET, which this deployment does not set' }];
  }
  try {
    targetGuard({ allowPrivateNetwork: config.allowPrivateNetwork }).assertUrlAllowed(webhook.url);
    return [];
  } catch (error) {
    return [{ field: 'webhook.url', message: error instanceof ApiError ? error.message : 'is not allowed' }];
  }
}

/** A job's body checked against its schema, its `page` fields and its webhook, every failing field reported at once. */
function validateJobBody<Schema extends z.ZodType>(
  json: unknown,
  schema: Schema,
  config: Config,
): { fields: z.output<Schema>; page: JsonObject; webhook?: WebhookSpec } {
  const body = requireObject(json);
  const parsed = schema.safeParse(body);
  const issues = parsed.success ? [] : schemaIssues(parsed.error);
  const page = pageFieldIssues(body.page, config);
  issues.push(...page.issues);
  const webhook = webhookSchema().safeParse(body.webhook);
  if (webhook.success) issues.push(...webhookIssues(webhook.data, config));
  else
    issues.push(
      ...schemaIssues(webhook.error).map((issue) => ({ ...issue, field: issue.field === '(body)' ? 'webhook' : `webhook.${issue.field}` })),
    );
  if (!parsed.success || !webhook.success || issues.length > 0) {
    throw new ApiError('invalid_request', 'The request has invalid fields.', { details: issues });
  }
  const hook = webhook.data;
  if (hook === null || hook === undefined) return { fields: parsed.data, page: page.page };
  return {
    fields: parsed.data,
    page: page.page,
    webhook: {
      url: hook.url,
      events: hook.events?.length ? [...new Set(hook.events)] : [...WEBHOOK_EVENTS],
      metadata: (hook.metadata ?? null) as WebhookSpec['metadata'],
      allowPrivateNetwork: config.allowPrivateNetwork,
    },
  };
}

function batchSchema(maxUrls: number) {
  return z.strictObject({
    urls: z
      .array(
        z
          .string({ message: 'must be a string' })
          .max(MAX_URL_LENGTH, { message: `must be at most ${MAX_URL_LENGTH} characters` })
          .refine((url) => parseHttpUrl(url) !== undefined, { message: 'must be an absolute http: or https: URL' }),
        { message: 'is required and must be an array of URLs' },
      )
      // A count check, not .min/.max: those also judge the length of a string given in place of the array.
      .superRefine((urls, ctx) => {
        if (urls.length === 0) ctx.addIssue({ code: 'custom', message: 'must hold at least one URL' });
        if (urls.length > maxUrls) ctx.addIssue({ code: 'custom', message: `must hold at most ${maxUrls} URLs` });
      }),
    page: z.unknown().optional(),
    webhook: z.unknown().optional(),
  });
}

/**
 * Validates the body of POST /api/batch.
 * @throws ApiError `malformed_json` when the body is not an object, `invalid_request` listing every failing field.
 */
export function parseBatchRequest(json: unknown, config: Config): BatchRequest {
  const { fields, page, webhook } = validateJobBody(json, batchSchema(config.sites.maxBatchUrls), config);
  const seen = new Set<string>();
  const urls = fields.urls.filter((url) => {
    const key = normalizeUrl(url)!;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { urls, page, ...(webhook === undefined ? {} : { webhook }) };
}

export const DEFAULT_CRAWL_LIMIT = 100;
export const DEFAULT_MAX_DEPTH = 3;
export const MAX_DEPTH = 100;
const MAX_GLOB_LENGTH = 1024;

export interface CrawlRequest {
  url: string;
  crawl: Omit<CrawlSpec, 'allowPrivateNetwork'>;
  page: JsonObject;
  webhook?: WebhookSpec;
}

function globList() {
  return z
    .array(z.string({ message: 'must be a string' }).max(MAX_GLOB_LENGTH, { message: `must be at most ${MAX_GLOB_LENGTH} characters` }), {
      message: 'must be an array of path globs',
    })
    .superRefine((globs, ctx) => {
      if (globs.length > MAX_GLOBS) ctx.addIssue({ code: 'custom', message: `must hold at most ${MAX_GLOBS} globs` });
    })
    .nullish();
}

function crawlSchema(maxPages: number) {
  const integer = (min: number, max: number) =>
    z
      .number({ message: 'must be an integer' })
      .int({ message: 'must be an integer' })
      .min(min, { message: `must be at least ${min}` })
      .max(max, { message: `must be at most ${max}` })
      .nullish();
  return z.strictObject({
    url: z
      .string({ message: 'is required and must be a string' })
      .max(MAX_URL_LENGTH, { message: `must be at most ${MAX_URL_LENGTH} characters` })
      .refine((url) => parseHttpUrl(url) !== undefined, { message: 'must be an absolute http: or https: URL' }),
    limit: integer(1, maxPages),
    max_depth: integer(0, MAX_DEPTH),
    include_paths: globList(),
    exclude_paths: globList(),
    include_subdomains: z.boolean({ message: 'must be a boolean' }).nullish(),
    sitemap: z.enum(SITEMAP_MODES, { message: `must be one of ${SITEMAP_MODES.map((mode) => `"${mode}"`).join(', ')}` }).nullish(),
    ignore_query: z.boolean({ message: 'must be a boolean' }).nullish(),
    page: z.unknown().optional(),
    webhook: z.unknown().optional(),
  });
}

/**
 * Validates the body of POST /api/crawl and applies its defaults.
 * @throws ApiError `malformed_json` when the body is not an object, `invalid_request` listing every failing field.
 */
export function parseCrawlRequest(json: unknown, config: Config): CrawlRequest {
  const { fields, page, webhook } = validateJobBody(json, crawlSchema(config.sites.maxCrawlPages), config);
  return {
    url: fields.url,
    crawl: {
      limit: fields.limit ?? Math.min(DEFAULT_CRAWL_LIMIT, config.sites.maxCrawlPages),
      maxDepth: fields.max_depth ?? DEFAULT_MAX_DEPTH,
      includePaths: fields.include_paths ?? [],
      excludePaths: fields.exclude_paths ?? [],
      includeSubdomains: fields.include_subdomains ?? false,
      sitemap: fields.sitemap ?? 'include',
      ignoreQuery: fields.ignore_query ?? false,
    },
    page,
    ...(webhook === undefined ? {} : { webhook }),
  };
}
