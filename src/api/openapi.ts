// The OpenAPI 3.1 document served at GET /openapi.json. The request body schema is generated from the
// same zod schema that validates requests (fetchRequestSchema), and the error responses from the
// closed error table (ERROR_CODES + describeError), so neither can drift from what the API does.
// Pure: no Hono, no Workers APIs; app.ts mounts it.
import { z } from 'zod';
import { DEFAULT_PROXY_NAME } from './egress.js';
import { describeError, ERROR_CODES, type ErrorCode, type ErrorStatus } from '../errors.js';
import { BLOCK_KINDS, BLOCK_VENDORS } from '../blocked/verdict.js';
import { METADATA_FIELDS } from '../shared/metadata.js';
import { DEFAULT_WAIT_MS, fetchRequestSchema, MAX_URL_LENGTH, type SchemaLimits } from './fetch-request.js';
import { VISIT_FIELD_DOCS } from './visit-field-docs.js';
import { sitePaths, siteSchemas } from './openapi-sites.js';

type JsonSchema = Record<string, unknown>;
/** `required` marks a header sent on every response of its status (OpenAPI's header `required`). */
type Header = { description: string; schema: JsonSchema; required?: boolean };
type BodyField = keyof z.input<ReturnType<typeof fetchRequestSchema>>;
export type FieldDocs = { description: string; default?: unknown };

/** Rules the server applies beyond what JSON Schema can say are stated here, per field. */
export const FETCH_FIELD_DOCS: Record<BodyField, FieldDocs> = {
  url: { description: `The page to load: an absolute http: or https: URL (checked by the server), at most ${MAX_URL_LENGTH} characters.` },
  output_format: { description: 'What to return: the rendered DOM as HTML, or GitHub Flavored Markdown.', default: 'html' },
  wait_ms: {
    description: `Waiting budget in ms, counted from navigation start; 0 or null means the default (${DEFAULT_WAIT_MS}).`,
    default: DEFAULT_WAIT_MS,
  },
  wait_event: {
    description: 'Readiness signal; the page is taken when it fires or the budget runs out, whichever is first.',
    default: 'networkIdle',
  },
  wait_for_selector: {
    description:
      "A CSS selector, at most 1024 characters: the page is taken once wait_event fired and an element matching it is rendered (non-zero box, not hidden), in the document or an open shadow root, within the same wait_ms budget (X-Wait-Result: timeout otherwise). Anything Chromium's querySelector accepts; a selector that does not parse is 400 before the target is loaded.",
  },
  scroll: {
    description:
      'true scrolls the page down one viewport at a time until its height stops growing at the bottom, or MAX_SCROLL_STEPS viewports, within wait_ms, then waits for wait_event again: content loaded on scroll (feeds, comments) is in the answer.',
    default: false,
  },
  consent: {
    description:
      '"reject" answers the cookie-consent dialogs of known consent platforms as a person who declines would (never accept), in frames and shadow roots too, before the page is taken; they are not in the output. "keep" takes the page as served, dialogs included.',
    default: 'reject',
  },
  include_selectors: {
    description:
      'CSS selectors (at most 20, each at most 1024 characters): the output holds only the elements matching any of them, in document order (one inside another appears once, inside it), through open shadow roots, in both formats (html: their outerHTML in a minimal document). X-Selector-Matches counts the elements matched. Applied after exclude_selectors; only_main_content works on what is left. An empty list is the same as none.',
  },
  exclude_selectors: {
    description:
      'CSS selectors (same bounds): every element matching any of them, with all inside it, is left out of the output, in both formats. A selector that does not parse is 400 naming its index (exclude_selectors[2]).',
  },
  raw: { description: 'true returns the content alone (text/html or text/plain) instead of the JSON envelope.', default: false },
  only_main_content: {
    description:
      'true returns the main content (article, documentation body, post) with its title as a level-1 heading, both formats; the whole page when none can be told apart (X-Content-Mode says which).',
    default: false,
  },
  include_metadata: {
    description:
      'true adds `metadata` to the JSON answer (title, description, language, canonical URL, site name, author, published time, image); ignored with raw.',
    default: false,
  },
  include_links: {
    description:
      'true adds `links` to the JSON answer: every distinct http(s) link a reader sees (shadow roots and frames included, document order) once, absolute, with its accessible text, its region (main, navigation, header, footer, aside, other) and whether it is internal to the final host; ignored with raw.',
    default: false,
  },
  include_images: {
    description:
      'true adds `images` to the JSON answer: every distinct image a reader sees, by the URL the browser uses, with its alt, rendered size in CSS px and region; data: URIs and images under 2×2 px left out; ignored with raw.',
    default: false,
  },
  screenshot: {
    description:
      'true (the viewport, PNG) or {"full_page"?, "selector"?, "type"?: "png" | "jpeg" | "webp", "quality"?: 1–100 (jpeg and webp only)}: adds `screenshot` ({type, width, height, data: base64}) to the JSON answer, taken when the page is taken; with raw: true the answer is the image alone. full_page: the whole page up to MAX_SCREENSHOT_HEIGHT CSS px (X-Screenshot-Truncated: true when cut); selector: the first rendered match, its whole box (X-Screenshot-Matches: 0 and no screenshot when none). Unknown keys, a selector that does not parse and quality with png are 400 naming screenshot.<key>.',
  },
  max_age: {
    description:
      'Seconds: a stored render of the same page and options at most this old may answer (X-Cache: HIT, Age); 0 always renders. At most MAX_CACHE_AGE.',
    default: 0,
  },
  proxy_name: {
    description: `"${DEFAULT_PROXY_NAME}" (the browser's own egress) or a proxy name configured on the deployment (checked by the server).`,
    default: DEFAULT_PROXY_NAME,
  },
  country: {
    description: `ISO 3166-1 alpha-2, any case. With "${DEFAULT_PROXY_NAME}" it must be a Browser Rendering location; with a datacenter proxy it needs a country template (checked by the server).`,
  },
  ...VISIT_FIELD_DOCS,
};

/** Headers some error statuses carry besides X-Request-Id (docs/api.md "Errors"). */
const ERROR_HEADERS: Partial<Record<ErrorStatus, Record<string, Header>>> = {
  401: {
    'WWW-Authenticate': {
      description: 'Bearer challenge (RFC 6750); `error="invalid_token"` for an unknown token.',
      schema: { type: 'string' },
      required: true,
    },
  },
  405: {
    Allow: {
      description: "The path's methods: POST, or GET, DELETE on /api/jobs/{id}.",
      schema: { type: 'string', enum: ['POST', 'GET, DELETE'] },
      required: true,
    },
  },
  429: {
    'Retry-After': { description: 'Seconds until the token may retry.', schema: { type: 'string', pattern: '^[0-9]+$' }, required: true },
  },
  503: {
    'Retry-After': {
      description: 'Seconds until a retry may find a browser (browser_unavailable only).',
      schema: { type: 'string', pattern: '^[0-9]+$' },
      required: false,
    },
  },
};

const REQUEST_ID: Header = {
  description: 'The request id: a client-supplied safe id, otherwise a UUID.',
  schema: { type: 'string' },
  required: true,
};

// Every successful fetch response carries all of these, and Age on a HIT.
const FETCH_HEADERS: Record<string, Header> = {
  ...Object.fromEntries(
    Object.entries({
      'X-Request-Id': REQUEST_ID,
      'X-Final-Url': { description: 'URL of the main document after redirects.', schema: { type: 'string', format: 'uri' } },
      'X-Wait-Result': {
        description: '`event` when wait_event fired, `timeout` when the budget ran out first (not an error).',
        schema: { type: 'string', enum: ['event', 'timeout'] },
      },
      'X-Page-Status': { description: "The target's own HTTP status.", schema: { type: 'string', pattern: '^[0-9]{3}$' } },
      'X-Document-Kind': {
        description: 'What was read: `pdf` (a PDF target, converted), or the kind of document the browser rendered.',
        schema: { type: 'string', enum: ['html', 'json', 'xml', 'text', 'pdf'] },
      },
      'Server-Timing': {
        description:
          'Phase durations: cache (the store read, with max_age), queue (waiting for a browser page), acquire, navigate, wait, serialize, convert.',
        schema: { type: 'string' },
      },
      'X-Cache': {
        description:
          '`HIT` when a stored render answered (max_age), `MISS` when this request rendered, `BYPASS` when it rendered without the store (headers or cookies: a personal request).',
        schema: { type: 'string', enum: ['HIT', 'MISS', 'BYPASS'] },
      },
    } satisfies Record<string, Header>).map(([name, header]) => [name, { ...header, required: true }]),
  ),
  'X-Page-Blocked': {
    description:
      "Only when the page taken is a bot wall (a challenge that did not resolve within wait_ms, a CAPTCHA or a block page), not the target's content: the vendor, as `blocked.vendor` says. Such an answer is never stored.",
    schema: { type: 'string', enum: [...BLOCK_VENDORS] },
  },
  'X-Pdf-Pages': {
    description: 'On a PDF answer: `<converted>/<total>` pages; at most MAX_PDF_PAGES are converted, the rest cut.',
    schema: { type: 'string', pattern: '^[0-9]+/[0-9]+$' },
  },
  'X-Screenshot-Matches': {
    description: 'With a screenshot selector: `1` when the element was taken, `0` when none matching is rendered (no screenshot then).',
    schema: { type: 'string', enum: ['0', '1'] },
  },
  'X-Screenshot-Truncated': {
    description: 'On a full-page screenshot cut at MAX_SCREENSHOT_HEIGHT CSS px: `true`.',
    schema: { type: 'string', const: 'true' },
  },
  Age: {
    description: 'With X-Cache: HIT, whole seconds since the stored render was taken.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
};

const REGION: JsonSchema = {
  type: 'string',
  enum: ['main', 'navigation', 'header', 'footer', 'aside', 'other'],
  description: 'In the main content, else the innermost landmark around it.',
};

/** The lists include_links and include_images add to the JSON answer, and the screenshot. */
const VIEW_PROPERTIES: Record<string, JsonSchema> = {
  screenshot: {
    type: 'object',
    description: 'Only with screenshot (absent when its selector matched nothing rendered).',
    properties: {
      type: { type: 'string', enum: ['image/png', 'image/jpeg', 'image/webp'] },
      width: { type: 'integer', description: "The image's pixels: CSS px × the device pixel ratio." },
      height: { type: 'integer' },
      data: { type: 'string', contentEncoding: 'base64', description: 'The image, base64.' },
    },
    required: ['type', 'width', 'height', 'data'],
    additionalProperties: false,
  },
  links: {
    type: 'array',
    description: 'Only with include_links: every distinct link a reader sees, in document order.',
    items: {
      type: 'object',
      properties: {
        url: { type: 'string', format: 'uri' },
        text: { type: 'string', description: 'Accessible text of its first occurrence; "" when none.' },
        region: REGION,
        internal: { type: 'boolean', description: "Its host is the final URL's host or a subdomain of it." },
      },
      required: ['url', 'text', 'region', 'internal'],
      additionalProperties: false,
    },
  },
  images: {
    type: 'array',
    description: 'Only with include_images: every distinct image a reader sees, in document order.',
    items: {
      type: 'object',
      properties: {
        url: { type: 'string', format: 'uri' },
        alt: { type: 'string' },
        width: { type: 'integer', description: 'Rendered width in CSS px.' },
        height: { type: 'integer', description: 'Rendered height in CSS px.' },
        region: REGION,
      },
      required: ['url', 'alt', 'width', 'height', 'region'],
      additionalProperties: false,
    },
  },
};
const SUCCESS_BODY: JsonSchema = {
  type: 'object',
  properties: {
    data: { type: 'string', description: 'The page as HTML or markdown (a PDF target: its text, converted, in reading order).' },
    status: { type: 'integer', description: "The target's HTTP status of the final main-document response." },
    headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'Its headers, names lowercase.' },
    metadata: {
      type: 'object',
      description:
        "Only with include_metadata: from the page's meta tags, Open Graph, JSON-LD and <html lang>; each a string or null, URLs absolute.",
      properties: Object.fromEntries(METADATA_FIELDS.map((field) => [field, { type: ['string', 'null'] }])),
      required: [...METADATA_FIELDS],
      additionalProperties: false,
    },
    ...VIEW_PROPERTIES,
    blocked: {
      type: 'object',
      description:
        "Only when the page is a bot wall, not the target's content: whose (`vendor`; `captcha` for a CAPTCHA wall of no vendor's own) and what kind (`challenge`: a browser check that did not let the page through within wait_ms; `captcha`: asks a person; `block`: refuses).",
      properties: {
        vendor: { type: 'string', enum: [...BLOCK_VENDORS] },
        kind: { type: 'string', enum: [...BLOCK_KINDS] },
      },
      required: ['vendor', 'kind'],
      additionalProperties: false,
    },
  },
  required: ['data', 'status', 'headers'],
  additionalProperties: false,
};

function errorBody(codes: readonly ErrorCode[]): JsonSchema {
  return {
    type: 'object',
    properties: {
      error: {
        type: 'object',
        properties: {
          code: { type: 'string', enum: [...codes] },
          message: { type: 'string' },
          details: {
            type: 'array',
            description: 'Each failing field (invalid_request only).',
            items: {
              type: 'object',
              properties: { field: { type: 'string' }, message: { type: 'string' } },
              required: ['field', 'message'],
              additionalProperties: false,
            },
          },
        },
        required: ['code', 'message'],
        additionalProperties: false,
      },
    },
    required: ['error'],
    additionalProperties: false,
  };
}

/** Error codes grouped by their HTTP status, in the table's order. */
function errorCodesByStatus(): Map<ErrorStatus, ErrorCode[]> {
  const byStatus = new Map<ErrorStatus, ErrorCode[]>();
  for (const code of ERROR_CODES) {
    const { status } = describeError(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

/** One shared response per error status (components.responses.Error<status>), listing its codes. */
function errorResponses(): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, codes] of [...errorCodesByStatus()].sort(([a], [b]) => a - b)) {
    responses[`Error${status}`] = {
      description: codes.map((code) => `\`${code}\`: ${describeError(code).message}`).join(' '),
      headers: { 'X-Request-Id': REQUEST_ID, ...ERROR_HEADERS[status] },
      content: {
        'application/json': {
          schema: errorBody(codes),
          examples: Object.fromEntries(codes.map((code) => [code, { value: { error: { code, message: describeError(code).message } } }])),
        },
      },
    };
  }
  return responses;
}

function refs(statuses: number[]): Record<string, { $ref: string }> {
  return Object.fromEntries(statuses.map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }]));
}

/** An object schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1 and MCP), with per-field docs. */
export function documentedJsonSchema<Field extends string>(schema: z.ZodObject, docs: Record<Field, FieldDocs>): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
  const properties = json.properties as Record<Field, JsonSchema>;
  for (const [field, fieldDocs] of Object.entries(docs) as [Field, FieldDocs][]) {
    properties[field] = { ...properties[field], ...fieldDocs };
  }
  return json;
}

/** The request schema of POST /api/fetch as JSON Schema, with per-field docs. */
export function fetchRequestJsonSchema(limits: SchemaLimits): JsonSchema {
  return documentedJsonSchema(fetchRequestSchema(limits), FETCH_FIELD_DOCS);
}

export function openApiDocument(config: SchemaLimits) {
  const fetchRequest = fetchRequestJsonSchema(config);
  const byStatus = [...errorCodesByStatus().keys()].sort((a, b) => a - b);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Page Fetch',
      version: '0.1.0',
      description:
        'Loads a web page in a real headless browser and returns the rendered page as HTML or markdown; maps, crawls and batches whole sites.',
    },
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'One of the API tokens of the deployment.' } },
      schemas: {
        FetchRequest: fetchRequest,
        FetchResponse: SUCCESS_BODY,
        ErrorBody: errorBody(ERROR_CODES),
        ...siteSchemas(fetchRequest),
      },
      // Error404 is what any path not listed here answers; OpenAPI has no wildcard path to hang it on.
      responses: errorResponses(),
    },
    security: [{ bearerAuth: [] }],
    paths: {
      '/api/fetch': {
        post: {
          operationId: 'fetchPage',
          summary: 'Render a page and return it as HTML or markdown',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/FetchRequest' } } } },
          responses: {
            '200': {
              description: "The rendered page, whatever the target's own status. JSON unless `raw` is true.",
              headers: FETCH_HEADERS,
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/FetchResponse' } },
                'text/html': { schema: { type: 'string', description: 'raw: true, output_format html (charset=utf-8).' } },
                'text/plain': { schema: { type: 'string', description: 'raw: true, output_format markdown (charset=utf-8).' } },
                ...Object.fromEntries(
                  ['image/png', 'image/jpeg', 'image/webp'].map((type) => [
                    type,
                    {
                      schema: {
                        type: 'string',
                        format: 'binary',
                        description: 'raw: true with screenshot: the image alone (empty when its selector matched nothing).',
                      },
                    },
                  ]),
                ),
              },
            },
            // Every error status but 404, which only unknown paths answer.
            ...refs(byStatus.filter((status) => status !== 404)),
          },
        },
      },
      ...sitePaths(refs),
      '/healthz': {
        get: {
          operationId: 'health',
          summary: 'Liveness: no token, no browser',
          security: [],
          responses: {
            '200': {
              description: 'The Worker is up.',
              content: {
                'application/json': { schema: { type: 'object', properties: { status: { const: 'ok' } }, required: ['status'] } },
              },
            },
            // A broken configuration fails every route, these too.
            ...refs([500]),
          },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'openApiDocument',
          summary: 'This document',
          security: [],
          responses: {
            '200': { description: 'The OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } },
            ...refs([500]),
          },
        },
      },
    },
  };
}
