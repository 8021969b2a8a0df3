// POST /mcp: a stateless Model Context Protocol server over Streamable HTTP (docs/api.md "MCP"), behind
// the same bearer auth and per-token rate limit as /api/fetch. Each request gets its own SDK server
// and transport (stateless: no session id, nothing kept between requests) and a JSON answer, not an
// SSE stream: every reply is one message once the tool is done. GET and DELETE, which only sessions
// and server-sent streams need, answer 405 as the transport specification allows.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type Context, Hono } from 'hono';
import { ApiError, asApiError } from '../../errors.js';
import { logError } from '../access-log.js';
import type { AppEnv } from '../app-env.js';
import { bearerAuth } from '../auth.js';
import { fetchPage } from '../fetch-page.js';
import { discardBody, MAX_BODY_BYTES } from '../json-body.js';
import { rateLimit } from '../rate-limit.js';
import { blockedToolText, parseFetchPageArguments, toolErrorText } from './fetch-page-tool.js';
import { contentPart } from './paging.js';
import { createMcpServer, type McpTool } from './server.js';

/** One fetch_page call: the page's content, a part of it, or the API error or the bot wall (docs/api.md "Blocked pages") as a tool error. */
async function callFetchPage(c: Context<AppEnv>, args: unknown): Promise<CallToolResult> {
  try {
    const { request, maxLength, startIndex } = parseFetchPageArguments(args, c.get('config'));
    const { content, page, blocked } = await fetchPage(c, request);
    if (blocked !== undefined) return { content: [{ type: 'text', text: blockedToolText(blocked, page, request.waitMs) }], isError: true };
    const result: CallToolResult = { content: [{ type: 'text', text: contentPart(content, startIndex, maxLength).text }] };
    if (request.includeMetadata) result.content.push({ type: 'text', text: JSON.stringify({ metadata: page.metadata ?? null }) });
    if (request.includeLinks) result.content.push({ type: 'text', text: JSON.stringify({ links: page.links ?? [] }) });
    if (request.includeImages) result.content.push({ type: 'text', text: JSON.stringify({ images: page.images ?? [] }) });
    if (page.screenshot !== undefined) result.content.push({ type: 'image', data: page.screenshot.data, mimeType: page.screenshot.type });
    return result;
  } catch (error) {
    const apiError = asApiError(error);
    logError(c.get('log'), apiError);
    return { content: [{ type: 'text', text: toolErrorText(apiError) }], isError: true };
  }
}

/** Tools beside fetch_page, made for one request (they answer with its context). */
export type McpToolsOf = (c: Context<AppEnv>) => McpTool[];

export function mcpRoutes(moreTools: McpToolsOf = () => []) {
  const routes = new Hono<AppEnv>();
  routes.post('/mcp', bearerAuth(), rateLimit(), async (c) => {
    const server = createMcpServer(c.get('config'), (args) => callFetchPage(c, args), moreTools(c));
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true, maxRequestBodySize: MAX_BODY_BYTES });
    await server.connect(transport);
    try {
      const answer = await transport.handleRequest(c.req.raw);
      c.header('Cache-Control', 'no-store');
      // Through the context, so the headers set before (X-Request-Id) are on it too.
      return c.newResponse(answer.body, answer);
    } finally {
      await discardBody(c.req.raw); // an early answer (406, 415, 413) leaves the body unread
      await server.close();
    }
  });
  routes.all('/mcp', () => {
    throw new ApiError('method_not_allowed', undefined, { headers: { Allow: 'POST' } });
  });
  return routes;
}
