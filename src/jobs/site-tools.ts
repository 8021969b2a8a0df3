// The site operations as MCP tools beside fetch_page (docs/api.md "MCP"): map_site answers the map,
// crawl_site starts a crawl (or, given `urls`, a batch) and returns the job's id, get_job answers one
// page of a job's records. Each takes the endpoint's own fields and validation; an API error comes
// back as a tool error naming its code, as fetch_page's do.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from 'hono';
import type { AppEnv } from '../api/app-env.js';
import { logError } from '../api/access-log.js';
import { parseMapRequest } from '../api/map/map-request.js';
import { mapSite } from '../api/map/map-site.js';
import { toolErrorText } from '../api/mcp/fetch-page-tool.js';
import type { McpTool } from '../api/mcp/server.js';
import { asApiError } from '../errors.js';
import { parseBatchRequest, parseCrawlRequest } from './job-request.js';
import { readJob, startJob } from './job-routes.js';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object' as const,
  properties,
  ...(required.length > 0 ? { required } : {}),
});

async function answer(c: Context<AppEnv>, run: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return { content: [{ type: 'text', text: JSON.stringify(await run()) }] };
  } catch (error) {
    const apiError = asApiError(error);
    logError(c.get('log'), apiError);
    return { content: [{ type: 'text', text: toolErrorText(apiError) }], isError: true };
  }
}

/** Arguments as an object, or `{}` (the parsers then name what is missing). */
function fields(args: unknown): Record<string, unknown> {
  return typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}

export function siteTools(c: Context<AppEnv>): McpTool[] {
  const config = c.get('config');
  return [
    {
      definition: {
        name: 'map_site',
        title: 'Map a site',
        description:
          "Lists a site's URLs quickly, from its sitemaps and the links of its rendered start page (in scope, robots.txt obeyed), " +
          'without loading other pages. `search` keeps and ranks the URLs that hold its words. Answers {"links": [{"url", "title"?}]}.',
        inputSchema: object(
          {
            url: { type: 'string', description: 'The start page, an absolute http(s) URL.' },
            limit: { type: 'integer', minimum: 1, maximum: 5000, default: 1000 },
            include_subdomains: { type: 'boolean', default: false },
            sitemap: { type: 'string', enum: ['include', 'skip', 'only'], default: 'include' },
            search: { type: 'string', description: 'Words the URL or its link text should hold.' },
          },
          ['url'],
        ),
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      },
      call: (args) => answer(c, () => mapSite(c, parseMapRequest(args))),
    },
    {
      definition: {
        name: 'crawl_site',
        title: 'Crawl a site or fetch a list of pages',
        description:
          'Starts a job: with `url`, a crawl of that site (its sitemaps and links, robots.txt obeyed, each page once); with `urls`, ' +
          'a batch of those pages. Every page is fetched as fetch_page would, with the `page` options. Answers {"id", "url"}; ' +
          'read the pages with get_job.',
        inputSchema: object({
          url: { type: 'string', description: 'Start page of a crawl.' },
          urls: { type: 'array', items: { type: 'string' }, description: 'Pages of a batch (instead of url).' },
          limit: { type: 'integer', minimum: 1, default: 100, description: 'Pages a crawl tries at most.' },
          max_depth: { type: 'integer', minimum: 0, maximum: 100, default: 3 },
          include_paths: { type: 'array', items: { type: 'string' }, description: 'Path globs: * any run but /, ** any run.' },
          exclude_paths: { type: 'array', items: { type: 'string' } },
          include_subdomains: { type: 'boolean', default: false },
          sitemap: { type: 'string', enum: ['include', 'skip', 'only'], default: 'include' },
          ignore_query: { type: 'boolean', default: false },
          page: { type: 'object', description: 'fetch_page options for every page (not url, raw, max_length, start_index).' },
          webhook: { type: 'object', description: '{"url", "events"?, "metadata"?}: signed POSTs of the job\'s events.' },
        }),
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      },
      call: (args) =>
        answer(c, async () => {
          const body = fields(args);
          let id: string;
          if (body.urls !== undefined) {
            const request = parseBatchRequest(body, config);
            id = await startJob(c, 'batch', request.urls, request.page, { webhook: request.webhook });
          } else {
            const request = parseCrawlRequest(body, config);
            id = await startJob(c, 'crawl', [request.url], request.page, {
              crawl: { ...request.crawl, allowPrivateNetwork: config.allowPrivateNetwork },
              webhook: request.webhook,
            });
          }
          return { id, url: `/api/jobs/${id}` };
        }),
    },
    {
      definition: {
        name: 'get_job',
        title: 'Read a job',
        description:
          "A job's status, counts and one page of its records (url, state, status, data…); pass next_cursor as cursor for the next page. " +
          'While the job runs, later calls bring the records decided since.',
        inputSchema: object({ id: { type: 'string' }, cursor: { type: 'string' } }, ['id']),
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
      call: (args) =>
        answer(c, () => {
          const { id, cursor } = fields(args);
          return readJob(c, typeof id === 'string' ? id : '', typeof cursor === 'string' ? cursor : undefined);
        }),
    },
  ];
}
