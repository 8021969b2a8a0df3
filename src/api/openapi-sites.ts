// The site endpoints in the OpenAPI document (docs/api.md "Sites"): POST /api/map, POST /api/crawl,
// POST /api/batch and GET/DELETE /api/jobs/<id>. The map body is generated from the zod schema that
// validates it; the crawl and batch bodies are validated beside the job engine (src/jobs/), which this
// layer may not import, so they are written out here and a unit test judges sample bodies with both.
// Pure: no Hono, no Workers APIs; openapi.ts joins these into the document.
import { z } from 'zod';
import { DEFAULT_MAP_LIMIT, mapRequestSchema, MAX_MAP_LIMIT, MAX_SEARCH_LENGTH } from './map/map-request.js';
import { MAX_URL_LENGTH } from './fetch-request.js';
import { MAX_GLOBS } from '../sites/path-glob.js';

type JsonSchema = Record<string, unknown>;
type Refs = (statuses: number[]) => Record<string, { $ref: string }>;

const SITEMAP = (what: string): JsonSchema => ({
  type: ['string', 'null'],
  enum: ['include', 'skip', 'only', null],
  default: 'include',
  description: what,
});
const URL_FIELD: JsonSchema = {
  type: 'string',
  maxLength: MAX_URL_LENGTH,
  description: `An absolute http: or https: URL (checked by the server), at most ${MAX_URL_LENGTH} characters.`,
};
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const GLOBS = (what: string): JsonSchema => ({
  ...nullable({ type: 'array', items: { type: 'string', maxLength: 1024 }, maxItems: MAX_GLOBS }),
  description: `${what} A glob matches the whole path (plus ? and the query): * is any run of characters but /, ** any run.`,
});

const MAP_FIELD_DOCS: Record<string, JsonSchema> = {
  url: { description: `The start page: an absolute http: or https: URL (checked by the server), at most ${MAX_URL_LENGTH} characters.` },
  limit: { description: `Links answered at most, 1 … ${MAX_MAP_LIMIT}.`, default: DEFAULT_MAP_LIMIT },
  include_subdomains: { description: "Subdomains of the start URL's host are in scope too.", default: false },
  sitemap: {
    description: '"include": read the sitemaps and render the start page; "skip": only render it; "only": only read the sitemaps.',
    default: 'include',
  },
  search: {
    description: `At most ${MAX_SEARCH_LENGTH} characters: keep the URLs whose URL or link text holds its words, most words first.`,
  },
};

/** The body of POST /api/map, from the zod schema that validates it. */
function mapRequestJsonSchema(): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(mapRequestSchema(), { io: 'input' }) as JsonSchema;
  const properties = json.properties as Record<string, JsonSchema>;
  for (const [field, docs] of Object.entries(MAP_FIELD_DOCS)) properties[field] = { ...properties[field], ...docs };
  return json;
}

/** `page` of a job: the /api/fetch fields but `url` and `raw`. */
function pageFieldsSchema(fetchRequest: JsonSchema): JsonSchema {
  const { url: _url, raw: _raw, ...properties } = fetchRequest.properties as Record<string, JsonSchema>;
  return {
    ...nullable({ type: 'object', properties, additionalProperties: false }),
    description:
      'Every /api/fetch field but url and raw, with the same rules and defaults; each failing one is 400 invalid_request naming page.<field>.',
  };
}

const WEBHOOK: JsonSchema = {
  ...nullable({
    type: 'object',
    properties: {
      url: { ...URL_FIELD, description: `${URL_FIELD.description} The private-network guard applies; redirects are not followed.` },
      events: nullable({ type: 'array', items: { type: 'string', enum: ['started', 'page', 'completed', 'failed'] } }),
      metadata: { description: 'Any JSON of at most 4 KiB (checked by the server), sent back with every event.' },
    },
    required: ['url'],
    additionalProperties: false,
  }),
  description:
    'Events POSTed to url as JSON, signed with X-Page-Fetch-Signature (HMAC-SHA256 under WEBHOOK_SECRET); events default to all. A deployment without WEBHOOK_SECRET answers 400 naming webhook.',
};

function crawlRequestJsonSchema(fetchRequest: JsonSchema): JsonSchema {
  const integer = (min: number, max: number | undefined, description: string, fallback: number): JsonSchema => ({
    ...nullable({ type: 'integer', minimum: min, ...(max === undefined ? {} : { maximum: max }) }),
    description,
    default: fallback,
  });
  const flag = (description: string): JsonSchema => ({ type: ['boolean', 'null'], default: false, description });
  return {
    type: 'object',
    properties: {
      url: { ...URL_FIELD, description: `The start page, always fetched. ${URL_FIELD.description}` },
      limit: integer(1, undefined, 'Pages tried at most (fetched, failed, blocked); at most MAX_CRAWL_PAGES (checked by the server).', 100),
      max_depth: integer(0, 100, 'The start page is at 0, its sitemaps’ URLs at 1, links found at depth d at d + 1.', 3),
      include_paths: GLOBS(`Only URLs whose path matches one are followed (at most ${MAX_GLOBS}).`),
      exclude_paths: GLOBS('URLs whose path matches one are not followed; exclude wins.'),
      include_subdomains: flag("Subdomains of the start URL's host are in scope too."),
      sitemap: SITEMAP('"include": sitemaps and links; "skip": links only; "only": the sitemaps’ URLs only.'),
      ignore_query: flag('URLs that differ only in their query are one URL.'),
      page: pageFieldsSchema(fetchRequest),
      webhook: WEBHOOK,
    },
    required: ['url'],
    additionalProperties: false,
  };
}

function batchRequestJsonSchema(fetchRequest: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: {
      urls: {
        type: 'array',
        items: URL_FIELD,
        minItems: 1,
        description: 'The pages to fetch, each distinct URL (by normal form) once; at most MAX_BATCH_URLS (checked by the server).',
      },
      page: pageFieldsSchema(fetchRequest),
      webhook: WEBHOOK,
    },
    required: ['urls'],
    additionalProperties: false,
  };
}

const MAP_RESPONSE: JsonSchema = {
  type: 'object',
  properties: {
    links: {
      type: 'array',
      description: "The start page first (its final URL), then the sitemaps' entries, then the start page's links; each once.",
      items: {
        type: 'object',
        properties: {
          url: { type: 'string', format: 'uri' },
          title: { type: 'string', description: "Only where a sitemap or the start page's link text gives one." },
        },
        required: ['url'],
        additionalProperties: false,
      },
    },
  },
  required: ['links'],
  additionalProperties: false,
};

const JOB_STARTED: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'string', format: 'uuid' }, url: { type: 'string', description: '/api/jobs/<id>' } },
  required: ['id', 'url'],
  additionalProperties: false,
};

const COUNTS = ['queued', 'fetched', 'failed', 'blocked', 'skipped', 'disallowed'];
const JOB_VIEW_PROPERTIES: Record<string, JsonSchema> = {
  id: { type: 'string', format: 'uuid' },
  kind: { type: 'string', enum: ['crawl', 'batch'] },
  status: { type: 'string', enum: ['queued', 'running', 'completed', 'cancelled', 'failed'] },
  created_at: { type: 'string', format: 'date-time' },
  counts: {
    type: 'object',
    description: 'queued: URLs waiting or under way.',
    properties: Object.fromEntries(COUNTS.map((state) => [state, { type: 'integer', minimum: 0 }])),
    required: COUNTS,
    additionalProperties: false,
  },
};
const JOB_VIEW: JsonSchema = {
  type: 'object',
  properties: JOB_VIEW_PROPERTIES,
  required: Object.keys(JOB_VIEW_PROPERTIES),
  additionalProperties: false,
};

/** A closed object of two required strings. */
const twoStrings = (description: string, first: string, second: string): JsonSchema => ({
  type: 'object',
  description,
  properties: { [first]: { type: 'string' }, [second]: { type: 'string' } },
  required: [first, second],
  additionalProperties: false,
});

const PAGE_RECORD: JsonSchema = {
  type: 'object',
  properties: {
    url: { type: 'string' },
    state: { type: 'string', enum: ['fetched', 'failed', 'blocked', 'skipped', 'disallowed'] },
    depth: { type: 'integer', minimum: 0 },
    final_url: { type: ['string', 'null'] },
    status: { type: ['integer', 'null'], description: "The page's HTTP status; null when none was answered." },
    data: { type: ['string', 'null'], description: 'The content; null unless fetched.' },
    metadata: { type: 'object', description: 'Only with page.include_metadata.' },
    error: twoStrings('Only on a failed record: the code of the error /api/fetch would answer.', 'code', 'message'),
    blocked: twoStrings('Only on a blocked record: the bot wall’s vendor and kind, as /api/fetch says.', 'vendor', 'kind'),
  },
  required: ['url', 'state', 'depth', 'final_url', 'status', 'data'],
  additionalProperties: true,
};

const JOB_ANSWER: JsonSchema = {
  type: 'object',
  properties: {
    ...JOB_VIEW_PROPERTIES,
    pages: { type: 'array', items: { $ref: '#/components/schemas/JobPageRecord' }, description: 'In order of decision.' },
    next_cursor: {
      type: ['string', 'null'],
      description: 'Pass as ?cursor= for the next records; never null while the job runs, null once it has ended and all were read.',
    },
  },
  required: [...Object.keys(JOB_VIEW_PROPERTIES), 'pages', 'next_cursor'],
  additionalProperties: false,
};

/** The schemas the site paths refer to, keyed by component name. */
export function siteSchemas(fetchRequest: JsonSchema): Record<string, JsonSchema> {
  return {
    MapRequest: mapRequestJsonSchema(),
    MapResponse: MAP_RESPONSE,
    CrawlRequest: crawlRequestJsonSchema(fetchRequest),
    BatchRequest: batchRequestJsonSchema(fetchRequest),
    JobStarted: JOB_STARTED,
    Job: JOB_VIEW,
    JobAnswer: JOB_ANSWER,
    JobPageRecord: PAGE_RECORD,
  };
}

const REQUEST_ID = {
  description: 'The request id: a client-supplied safe id, otherwise a UUID.',
  schema: { type: 'string' },
  required: true,
};
const NO_STORE = { description: 'no-store: the answer is never cached.', schema: { type: 'string', const: 'no-store' }, required: true };

const json = (name: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } });
const body = (name: string) => ({ required: true, content: json(name) });

function startJob(operationId: string, summary: string, request: string, refs: Refs, statuses: number[]) {
  return {
    post: {
      operationId,
      summary,
      requestBody: body(request),
      responses: {
        '202': {
          description: 'The job is started; read it at Location.',
          headers: {
            'X-Request-Id': REQUEST_ID,
            Location: { description: '/api/jobs/<id>', schema: { type: 'string' }, required: true },
            'Cache-Control': NO_STORE,
          },
          content: json('JobStarted'),
        },
        ...refs(statuses),
      },
    },
  };
}

/** The site paths; `refs` names the shared error responses of each status. */
export function sitePaths(refs: Refs) {
  const jobId = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
  const ok = (description: string, schema: string) => ({
    description,
    headers: { 'X-Request-Id': REQUEST_ID, 'Cache-Control': NO_STORE },
    content: json(schema),
  });
  return {
    '/api/map': {
      post: {
        operationId: 'mapSite',
        summary: "List a site's URLs from its sitemaps and its start page's links",
        requestBody: body('MapRequest'),
        // A start page that fails answers its error as /api/fetch would.
        responses: {
          '200': ok("The site's URLs in scope.", 'MapResponse'),
          ...refs([400, 401, 403, 405, 413, 415, 429, 500, 502, 503, 504]),
        },
      },
    },
    // No browser work before the job exists: no 502, 504 or browser_unavailable.
    '/api/crawl': startJob(
      'startCrawl',
      'Start a job that crawls a site',
      'CrawlRequest',
      refs,
      [400, 401, 403, 405, 413, 415, 429, 500, 503],
    ),
    // A batch URL the guard refuses is a failed record, not a 403.
    '/api/batch': startJob(
      'startBatch',
      'Start a job that fetches a list of URLs',
      'BatchRequest',
      refs,
      [400, 401, 405, 413, 415, 429, 500, 503],
    ),
    '/api/jobs/{id}': {
      get: {
        operationId: 'readJob',
        summary: 'Read a job and the next of its page records',
        parameters: [
          jobId,
          {
            name: 'cursor',
            in: 'query',
            required: false,
            description: 'A next_cursor this endpoint answered; anything else is 400 naming cursor.',
            schema: { type: 'string', pattern: '^[0-9]{1,15}$' },
          },
        ],
        responses: {
          '200': ok('The job and at most JOB_PAGE_BYTES of its records.', 'JobAnswer'),
          ...refs([400, 401, 404, 405, 429, 500, 503]),
        },
      },
      delete: {
        operationId: 'cancelJob',
        summary: 'Cancel a job: no new page starts; pages fetched stay readable',
        parameters: [jobId],
        responses: { '200': ok('The job (no pages); cancelled unless it had ended.', 'Job'), ...refs([401, 404, 405, 429, 500, 503]) },
      },
    },
  };
}
