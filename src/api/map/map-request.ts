// The body of POST /api/map (docs/api.md "Sites"): its schema and the normalized MapRequest. Every
// failing field is reported, unknown fields are rejected, `null` means absent. Pure: no Hono, no Workers APIs.
import { z } from 'zod';
import { ApiError } from '../../errors.js';
import { MAX_URL_LENGTH, schemaIssues } from '../fetch-request.js';
import { parseHttpUrl } from '../../sites/url-normal-form.js';

export const SITEMAP_MODES = ['include', 'skip', 'only'] as const;
export type SitemapMode = (typeof SITEMAP_MODES)[number];

export const DEFAULT_MAP_LIMIT = 1000;
export const MAX_MAP_LIMIT = 5000;
export const MAX_SEARCH_LENGTH = 1024;

export interface MapRequest {
  url: string;
  limit: number;
  includeSubdomains: boolean;
  sitemap: SitemapMode;
  search?: string;
}

export function mapRequestSchema() {
  return z.strictObject({
    url: z
      .string({ message: 'is required and must be a string' })
      .max(MAX_URL_LENGTH, { message: `must be at most ${MAX_URL_LENGTH} characters` })
      .refine((value) => parseHttpUrl(value) !== undefined, { message: 'must be an absolute http: or https: URL' }),
    limit: z
      .number({ message: 'must be an integer' })
      .int({ message: 'must be an integer' })
      .min(1, { message: 'must be at least 1' })
      .max(MAX_MAP_LIMIT, { message: `must be at most ${MAX_MAP_LIMIT}` })
      .nullish(),
    include_subdomains: z.boolean({ message: 'must be a boolean' }).nullish(),
    sitemap: z.enum(SITEMAP_MODES, { message: `must be one of ${SITEMAP_MODES.map((mode) => `"${mode}"`).join(', ')}` }).nullish(),
    search: z
      .string({ message: 'must be a string' })
      .max(MAX_SEARCH_LENGTH, { message: `must be at most ${MAX_SEARCH_LENGTH} characters` })
      .nullish(),
  });
}

/**
 * Validates the body of POST /api/map and applies its defaults.
 * @throws ApiError `malformed_json` when the body is not an object, `invalid_request` listing every failing field.
 */
export function parseMapRequest(json: unknown): MapRequest {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ApiError('malformed_json', 'The request body must be a JSON object.');
  }
  const parsed = mapRequestSchema().safeParse(json);
  if (!parsed.success) {
    throw new ApiError('invalid_request', 'The request has invalid fields.', { details: schemaIssues(parsed.error), cause: parsed.error });
  }
  const body = parsed.data;
  const search = body.search?.trim();
  return {
    url: body.url,
    limit: body.limit ?? DEFAULT_MAP_LIMIT,
    includeSubdomains: body.include_subdomains ?? false,
    sitemap: body.sitemap ?? 'include',
    ...(search ? { search } : {}),
  };
}
