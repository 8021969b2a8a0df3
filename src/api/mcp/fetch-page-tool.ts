// The MCP tool `fetch_page` (docs/api.md "MCP"): its input schema is the fetch request's schema without
// `raw`, plus `max_length` and `start_index` for paging, with markdown as the default format; its
// arguments are validated by the same rules as POST /api/fetch, so a bad field gets the same message.
// Pure: no Hono, no MCP SDK.
import type { z } from 'zod';
import type { Blocked } from '../../blocked/verdict.js';
import type { ApiError } from '../../errors.js';
import type { Config } from '../config.js';
import {
  type FetchRequest,
  fetchRequestFrom,
  fetchRequestSchema,
  integerField,
  type SchemaLimits,
  validateBody,
} from '../fetch-request.js';
import { documentedJsonSchema, FETCH_FIELD_DOCS, type FieldDocs } from '../openapi.js';
import { DEFAULT_MAX_LENGTH } from './paging.js';

export const FETCH_PAGE_TOOL = 'fetch_page';

export interface FetchPageCall {
  request: FetchRequest;
  maxLength: number;
  startIndex: number;
}

export function fetchPageToolSchema(limits: SchemaLimits) {
  return fetchRequestSchema(limits)
    .omit({ raw: true })
    .extend({ max_length: integerField(1), start_index: integerField(0) });
}

type ToolField = keyof z.input<ReturnType<typeof fetchPageToolSchema>>;

const { raw: _raw, ...fetchFieldDocs } = FETCH_FIELD_DOCS;
const TOOL_FIELD_DOCS: Record<ToolField, FieldDocs> = {
  ...fetchFieldDocs,
  output_format: { description: 'What to return: GitHub Flavored Markdown, or the rendered DOM as HTML.', default: 'markdown' },
  only_main_content: {
    description:
      'true returns the main content (article, documentation body, post) with its title as a level-1 heading; the whole page when none can be told apart.',
    default: false,
  },
  include_metadata: {
    description:
      'true adds a second text item, the JSON object {"metadata": {...}} with the page\'s title, description, language, canonical URL, site name, author, published time and image.',
    default: false,
  },
  include_links: {
    description:
      'true adds a text item, the JSON object {"links": [...]}: every distinct link a reader sees, with its text, region (main, navigation, header, footer, aside, other) and whether it is internal.',
    default: false,
  },
  include_images: {
    description:
      'true adds a text item, the JSON object {"images": [...]}: every distinct image a reader sees, with its alt, rendered size and region.',
    default: false,
  },
  screenshot: {
    description:
      'true (the viewport, PNG) or {"full_page"?, "selector"?, "type"?: "png" | "jpeg" | "webp", "quality"?: 1–100, jpeg and webp only}: adds the picture as an image content block after the text (none when the selector matched nothing rendered).',
  },
  max_age: {
    description:
      'Seconds: a stored render of the same page and options at most this old may answer, without a browser; with it, the next parts of a long page come from the store. 0 always renders.',
    default: 0,
  },
  max_length: {
    description: 'At most this many characters of content per call; a cut part ends with a line naming the next start_index.',
    default: DEFAULT_MAX_LENGTH,
  },
  start_index: { description: 'Where in the content this part starts (from the line that ends the previous part).', default: 0 },
};

/** The tool as tools/list shows it; the annotations tell clients it only reads. */
export function fetchPageToolDefinition(limits: SchemaLimits) {
  return {
    name: FETCH_PAGE_TOOL,
    title: 'Fetch a web page',
    description:
      'Loads a web page in a real headless browser (JavaScript runs) and returns what a reader sees, as markdown by default. ' +
      'Set only_main_content to get the article without menus and footers. Long pages come in parts: ' +
      'when a part is cut, its last line names the start_index of the next part. ' +
      'A bot wall in front of the page (a challenge, a CAPTCHA or a block page) comes back as an error naming its vendor.',
    inputSchema: documentedJsonSchema(fetchPageToolSchema(limits), TOOL_FIELD_DOCS) as { type: 'object'; [key: string]: unknown },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  };
}

/**
 * The tool's arguments as a fetch request and a page window.
 * @throws ApiError invalid_request listing every failing field, as POST /api/fetch does.
 */
export function parseFetchPageArguments(args: unknown, config: Config): FetchPageCall {
  const { body, egress } = validateBody(args ?? {}, fetchPageToolSchema(config), config);
  return {
    request: fetchRequestFrom(body, egress, 'markdown'),
    maxLength: body.max_length ?? DEFAULT_MAX_LENGTH,
    startIndex: body.start_index ?? 0,
  };
}

/** The text of a tool error: the API's error code first, then its message and each failing field. */
export function toolErrorText(error: ApiError): string {
  const lines = [`${error.code}: ${error.message}`];
  for (const issue of error.details ?? []) lines.push(`- ${issue.field}: ${issue.message}`);
  return lines.join('\n');
}

/** What an agent can do about each kind of wall. */
const WALL_ADVICE: Record<Blocked['kind'], (waitMs: number) => string> = {
  challenge: (waitMs) =>
    `It is a bot challenge that did not let the browser through within wait_ms (${waitMs} ms): a longer wait_ms, another proxy_name or country, or a later try may pass it.`,
  captcha: () => 'It asks a person to solve a CAPTCHA: another proxy_name or country, or a later try, may not be asked.',
  block: () => 'The site refuses this client: another proxy_name or country, or a later try, may be let in.',
};

/**
 * The text of the tool error for a page that is a bot wall (docs/api.md "Blocked pages"): what it
 * is, whose, and what the agent can try; its content is not the page's, so none of it is sent.
 */
export function blockedToolText(blocked: Blocked, page: { finalUrl: string; status: number }, waitMs: number): string {
  return [
    `blocked: ${page.finalUrl} answered with a ${blocked.vendor} ${blocked.kind} page (status ${page.status}), not the page's content.`,
    WALL_ADVICE[blocked.kind](waitMs),
  ].join('\n');
}
