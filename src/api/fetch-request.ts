// The body of POST /api/fetch: its schema, defaults and the normalized FetchRequest the handler uses
// (docs/api.md "Request"). Every failing field is reported, unknown fields are rejected, and `null`
// means absent. Proxy and country rules need the deployment's proxies, so they take the Config.
// Pure: no Hono, no Workers APIs.
import { z } from 'zod';
import { ApiError, type FieldIssue } from '../errors.js';
import { CONSENT_CHOICES, type ConsentChoice } from '../shared/consent.js';
import { SCREENSHOT_TYPES, type ScreenshotRequest } from '../shared/screenshot.js';
import { WAIT_EVENTS, type WaitEvent } from '../shared/wait-events.js';
import type { Config } from './config.js';
import { selectorProblem } from './css-selector.js';
import { egressCountry, egressName, resolveEgress, type Egress, type EgressFields } from './egress.js';
import { visitOptions, type VisitOptions } from '../shared/log-privacy.js';
import type { Visit } from '../shared/visit.js';
import { cookieDomainIssues, visitFrom, visitSchemaFields } from './visit-fields.js';

export const OUTPUT_FORMATS = ['html', 'markdown'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const MAX_URL_LENGTH = 8192;
export const DEFAULT_WAIT_MS = 5000;

/** The deployment's limits that the schema checks against. */
export type SchemaLimits = Pick<Config, 'maxWaitMs' | 'maxCacheAge'>;

export interface FetchRequest {
  url: string;
  outputFormat: OutputFormat;
  /** The waiting budget in ms, counted from navigation start. */
  waitMs: number;
  waitEvent: WaitEvent;
  /** Also wait for an element matching this CSS selector to be rendered (docs/api.md "Waiting"). */
  waitForSelector?: string;
  /** Scroll through the page before it is taken, for content loaded on scroll. */
  scroll: boolean;
  /** The parts of the page to return (docs/api.md "Selecting parts"); absent: the whole page. */
  includeSelectors?: string[];
  /** The parts of the page to leave out. */
  excludeSelectors?: string[];
  /** Cookie-consent dialogs: declined, or kept as served. */
  consent: ConsentChoice;
  raw: boolean;
  /** Add the page's metadata to the JSON answer (never with raw). */
  includeMetadata: boolean;
  /** Only the page's main content, when one can be told apart. */
  onlyMainContent: boolean;
  /** Seconds: a stored render at most this old may answer; 0 always renders (api/cache/). */
  maxAge: number;
  /** Add the page's links to the JSON answer (docs/api.md "Links, images and screenshots"). */
  includeLinks: boolean;
  /** Add the page's images to the JSON answer. */
  includeImages: boolean;
  /** Add a picture of the page; with raw, the answer is the image alone. */
  screenshot?: ScreenshotRequest;
  /** Where the traffic leaves from, resolved (egress.ts). */
  egress: Egress;
  /** Device, viewport, cookies and extra headers of the visit (docs/api.md "Request controls"). */
  visit: Visit;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** An optional integer field from `min` (to `max`), with the messages every such field answers. */
export function integerField(min: number, max?: number) {
  const integer = z
    .number({ message: 'must be an integer' })
    .int({ message: 'must be an integer' })
    .min(min, { message: `must be at least ${min}` });
  return (max === undefined ? integer : integer.max(max, { message: `must be at most ${max}` })).nullish();
}

/** A CSS selector: syntax checked here, before any browser work (css-selector.ts). */
function selector() {
  return z.string({ message: 'must be a string' }).superRefine((value, ctx) => {
    const problem = selectorProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });
}

export const MAX_SELECTORS = 20;

/** An optional list of CSS selectors; each failing one is named by its index (`include_selectors[2]`). */
function selectorList() {
  return z
    .array(selector(), { message: 'must be an array of CSS selectors' })
    .max(MAX_SELECTORS, { message: `must hold at most ${MAX_SELECTORS} selectors` })
    .nullish();
}

/** `screenshot`: true (the viewport, PNG) or the object that says which picture (docs/api.md "Links, images and screenshots"). */
function screenshotField() {
  const options = z
    .strictObject({
      full_page: z.boolean({ message: 'must be a boolean' }).nullish(),
      selector: selector().nullish(),
      type: z.enum(SCREENSHOT_TYPES, { message: `must be one of ${SCREENSHOT_TYPES.map((v) => `"${v}"`).join(', ')}` }).nullish(),
      quality: integerField(1, 100),
    })
    .superRefine((value, ctx) => {
      if (value.quality !== undefined && value.quality !== null && (value.type ?? 'png') === 'png') {
        ctx.addIssue({ code: 'custom', path: ['quality'], message: 'applies to "jpeg" and "webp" only, not to "png"' });
      }
    });
  return z.union([z.boolean(), options], { message: 'must be a boolean or an object' }).nullish();
}

/** The body schema; also the source of the OpenAPI document's request schema (src/openapi.ts). */
export function fetchRequestSchema({ maxWaitMs, maxCacheAge }: SchemaLimits) {
  const enumMessage = (values: readonly string[]) => ({ message: `must be one of ${values.map((v) => `"${v}"`).join(', ')}` });
  return z.strictObject({
    url: z
      .string({ message: 'is required and must be a string' })
      .max(MAX_URL_LENGTH, { message: `must be at most ${MAX_URL_LENGTH} characters` })
      .refine(isHttpUrl, { message: 'must be an absolute http: or https: URL' }),
    output_format: z.enum(OUTPUT_FORMATS, enumMessage(OUTPUT_FORMATS)).nullish(),
    wait_ms: integerField(0, maxWaitMs),
    wait_event: z.enum(WAIT_EVENTS, enumMessage(WAIT_EVENTS)).nullish(),
    wait_for_selector: selector().nullish(),
    scroll: z.boolean({ message: 'must be a boolean' }).nullish(),
    include_selectors: selectorList(),
    exclude_selectors: selectorList(),
    consent: z.enum(CONSENT_CHOICES, enumMessage(CONSENT_CHOICES)).nullish(),
    raw: z.boolean({ message: 'must be a boolean' }).nullish(),
    only_main_content: z.boolean({ message: 'must be a boolean' }).nullish(),
    include_metadata: z.boolean({ message: 'must be a boolean' }).nullish(),
    include_links: z.boolean({ message: 'must be a boolean' }).nullish(),
    include_images: z.boolean({ message: 'must be a boolean' }).nullish(),
    screenshot: screenshotField(),
    max_age: integerField(0, maxCacheAge),
    proxy_name: z.string({ message: 'must be a string' }).min(1, { message: 'must not be empty' }).nullish(),
    country: z
      .string({ message: 'must be a string' })
      .regex(/^[A-Za-z]{2}$/, { message: 'must be an ISO 3166-1 alpha-2 country code' })
      .nullish(),
    ...visitSchemaFields(),
  });
}

/** A field as the caller wrote it: `include_selectors[2]` for an item of a list. */
const fieldName = (path: PropertyKey[]) =>
  path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i > 0 ? '.' : ''}${String(part)}`)).join('');

/** A union branch that failed only because the value is of another type: the caller meant another branch. */
const wrongType = (branch: z.core.$ZodIssue[]) => branch.length === 1 && branch[0]!.code === 'invalid_type' && branch[0]!.path.length === 0;

function issuesAt(issues: readonly z.core.$ZodIssue[], at: PropertyKey[], into: FieldIssue[]): void {
  for (const issue of issues) {
    const path = [...at, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) into.push({ field: fieldName([...path, key]), message: 'is not a known field' });
      continue;
    }
    // A union (screenshot: a boolean or an object) names the fields of the branch the value is of.
    const meant = issue.code === 'invalid_union' ? issue.errors.filter((branch) => !wrongType(branch)) : [];
    if (meant.length === 1) issuesAt(meant[0]!, path, into);
    else into.push({ field: fieldName(path) || '(body)', message: issue.message });
  }
}

/** Every failing field of a schema error, named as the caller wrote it; unknown keys each named where they stand. */
export function schemaIssues(error: z.ZodError): FieldIssue[] {
  const issues: FieldIssue[] = [];
  issuesAt(error.issues, [], issues);
  return issues;
}

/**
 * The proxy and country fields to judge even when other fields failed, so every failing field is
 * reported at once: each is taken as given when its own schema rule passed, else left out.
 */
function egressFields(json: object, issues: FieldIssue[]): EgressFields {
  const valid = (field: 'proxy_name' | 'country') => {
    const value = (json as Record<string, unknown>)[field];
    return typeof value === 'string' && !issues.some((issue) => issue.field === field) ? value : undefined;
  };
  return { proxy_name: valid('proxy_name'), country: valid('country') };
}

type FetchBody = z.output<ReturnType<typeof fetchRequestSchema>>;

/**
 * Validates a parsed JSON body against `schema` (the body's own, or one made from it such as the MCP
 * tool's) and resolves its egress.
 * @throws ApiError `malformed_json` when the body is not an object, `invalid_request` listing every failing field.
 */
export function validateBody<Schema extends z.ZodType<Partial<EgressFields>>>(
  json: unknown,
  schema: Schema,
  config: Config,
): { body: z.output<Schema>; egress: Egress } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ApiError('malformed_json', 'The request body must be a JSON object.');
  }
  const parsed = schema.safeParse(json);
  const issues = parsed.success ? [] : schemaIssues(parsed.error);
  const egress = resolveEgress(parsed.success ? parsed.data : egressFields(json, issues), config.proxies, issues);
  issues.push(...cookieDomainIssues(json, issues));
  if (!parsed.success || egress === undefined || issues.length > 0) {
    throw new ApiError('invalid_request', 'The request has invalid fields.', { details: issues, cause: parsed.error });
  }
  return { body: parsed.data, egress };
}

/** The screenshot asked for, with its defaults (the viewport, PNG); none for absent or false. */
function screenshotOf(field: FetchBody['screenshot']): { screenshot?: ScreenshotRequest } {
  if (field === undefined || field === null || field === false) return {};
  const options = field === true ? {} : field;
  return {
    screenshot: {
      fullPage: options.full_page ?? false,
      ...(options.selector === undefined || options.selector === null ? {} : { selector: options.selector }),
      type: options.type ?? 'png',
      ...(options.quality === undefined || options.quality === null ? {} : { quality: options.quality }),
    },
  };
}

/**
 * The normalized request of a valid body, with the defaults of docs/api.md "Request"; `outputFormat` is
 * the caller's default.
 */
export function fetchRequestFrom(
  body: Omit<FetchBody, 'raw'> & { raw?: boolean | null },
  egress: Egress,
  outputFormat: OutputFormat,
): FetchRequest {
  return {
    url: body.url,
    outputFormat: body.output_format ?? outputFormat,
    waitMs: body.wait_ms === undefined || body.wait_ms === null || body.wait_ms === 0 ? DEFAULT_WAIT_MS : body.wait_ms,
    waitEvent: body.wait_event ?? 'networkIdle',
    ...(body.wait_for_selector === undefined || body.wait_for_selector === null ? {} : { waitForSelector: body.wait_for_selector }),
    scroll: body.scroll ?? false,
    // An empty list selects nothing to change: it is taken as absent.
    ...(body.include_selectors?.length ? { includeSelectors: body.include_selectors } : {}),
    ...(body.exclude_selectors?.length ? { excludeSelectors: body.exclude_selectors } : {}),
    consent: body.consent ?? 'reject',
    raw: body.raw ?? false,
    includeMetadata: body.include_metadata ?? false,
    onlyMainContent: body.only_main_content ?? false,
    maxAge: body.max_age ?? 0,
    includeLinks: body.include_links ?? false,
    includeImages: body.include_images ?? false,
    ...screenshotOf(body.screenshot),
    egress,
    visit: visitFrom(body),
  };
}

/**
 * A request's options by the names the body gives them, each as the request was resolved (absent:
 * null); the request controls only when set, as log-privacy.ts allows (visitOptions).
 */
export interface RequestOptions extends VisitOptions {
  output_format: OutputFormat;
  wait_event: WaitEvent;
  wait_ms: number;
  wait_for_selector: string | null;
  scroll: boolean;
  include_selectors: string[] | null;
  exclude_selectors: string[] | null;
  consent: ConsentChoice;
  proxy_name: string;
  country: string | null;
  only_main_content: boolean;
  include_metadata: boolean;
  raw: boolean;
  max_age: number;
  include_links: boolean;
  include_images: boolean;
  screenshot: ScreenshotRequest | null;
}

/**
 * Every option of the request in one fixed order (the URL aside): the one list the cache key
 * (api/cache/cache-key.ts, which leaves out raw and max_age) and the request's log line are made of,
 * so an option added here reaches both. The key hashes the options in this order: reordering them
 * makes every stored render a miss. The request controls come last and only when set, so a request
 * without them keeps the key it had.
 */
export function requestOptions(request: FetchRequest): RequestOptions {
  return {
    output_format: request.outputFormat,
    wait_event: request.waitEvent,
    wait_ms: request.waitMs,
    wait_for_selector: request.waitForSelector ?? null,
    scroll: request.scroll,
    include_selectors: request.includeSelectors ?? null,
    exclude_selectors: request.excludeSelectors ?? null,
    consent: request.consent,
    proxy_name: egressName(request.egress),
    country: egressCountry(request.egress) ?? null,
    only_main_content: request.onlyMainContent,
    include_metadata: request.includeMetadata,
    raw: request.raw,
    max_age: request.maxAge,
    include_links: request.includeLinks,
    include_images: request.includeImages,
    screenshot: request.screenshot ?? null,
    ...visitOptions(request.visit),
  };
}

/**
 * The body schema for these limits, built once and reused: a zod schema holds no state between
 * parses, and building it costs several times what validating a body does (npm run bench:worker-cpu).
 */
const schemasByLimits = new Map<string, ReturnType<typeof fetchRequestSchema>>();
function requestSchemaFor(limits: SchemaLimits): ReturnType<typeof fetchRequestSchema> {
  const key = `${limits.maxWaitMs} ${limits.maxCacheAge}`;
  let schema = schemasByLimits.get(key);
  if (schema === undefined) {
    schema = fetchRequestSchema(limits);
    schemasByLimits.set(key, schema);
  }
  return schema;
}

/**
 * Validates the body of POST /api/fetch and applies defaults.
 * @throws ApiError `malformed_json` when the body is not an object, `invalid_request` listing every failing field.
 */
export function parseFetchRequest(json: unknown, config: Config): FetchRequest {
  const { body, egress } = validateBody(json, requestSchemaFor(config), config);
  return fetchRequestFrom(body, egress, 'html');
}
