// The bodies that start a job (docs/api.md "Sites"): POST /api/batch's `urls` and the `page` fields
// every page is fetched with — every /api/fetch field but `url` and `raw`, judged by the same schema
// and egress rules, each failing one named `page.<field>`. Pure: no Hono, no Workers APIs.
import { z } from 'zod';
import { fetchRequestSchema, MAX_URL_LENGTH, schemaIssues, validateBody } from '../api/fetch-request.js';
import type { Config } from '../api/config.js';
import { ApiError, type FieldIssue } from '../errors.js';
import { normalizeUrl, parseHttpUrl } from '../sites/url-normal-form.js';
import type { JsonObject } from './job-rpc.js';

export interface BatchRequest {
  /** The distinct URLs (by normal form), first spelling kept, in order. */
  urls: string[];
  page: JsonObject;
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
  });
}

/**
 * Validates the body of POST /api/batch.
 * @throws ApiError `malformed_json` when the body is not an object, `invalid_request` listing every failing field.
 */
export function parseBatchRequest(json: unknown, config: Config): BatchRequest {
  const body = requireObject(json);
  const parsed = batchSchema(config.sites.maxBatchUrls).safeParse(body);
  const issues = parsed.success ? [] : schemaIssues(parsed.error);
  const page = pageFieldIssues(body.page, config);
  issues.push(...page.issues);
  if (!parsed.success || issues.length > 0) throw new ApiError('invalid_request', 'The request has invalid fields.', { details: issues });
  const seen = new Set<string>();
  const urls = parsed.data.urls.filter((url) => {
    const key = normalizeUrl(url)!;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { urls, page: page.page };
}
