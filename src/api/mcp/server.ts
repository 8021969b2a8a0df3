// The MCP server of one request: the official SDK's protocol layer (initialize, ping, tools/list,
// tools/call, JSON-RPC errors) with the one tool. The low-level `Server` rather than `McpServer`:
// McpServer validates tool arguments with its own messages, and docs/api.md "MCP" wants the API's own
// validation, whose errors name the API's error code and every failing field.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import type { SchemaLimits } from '../fetch-request.js';
import { FETCH_PAGE_TOOL, fetchPageToolDefinition } from './fetch-page-tool.js';

export const SERVER_INFO = { name: 'page-fetch', title: 'Page Fetch', version: '0.1.0' };

const INSTRUCTIONS =
  'Page Fetch renders web pages in a real browser. Use fetch_page to read a page as markdown; ' +
  'set only_main_content for articles, and follow the start_index in the last line of a cut part for the rest.';

/** Runs one fetch_page call; resolves to the tool's result, errors included (never throws for API errors). */
export type FetchPageHandler = (args: unknown) => Promise<CallToolResult>;

/** A tool another part of the Worker adds (the site tools, src/jobs/): its definition and its call. */
export interface McpTool {
  definition: { name: string; inputSchema: { type: 'object'; [key: string]: unknown }; [key: string]: unknown };
  call(args: unknown): Promise<CallToolResult>;
}

export function createMcpServer(limits: SchemaLimits, fetchPage: FetchPageHandler, moreTools: readonly McpTool[] = []): Server {
  // Not Ajv (the default): it compiles schemas with `new Function`, which Workers forbid.
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [fetchPageToolDefinition(limits), ...moreTools.map((tool) => tool.definition)],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    if (request.params.name === FETCH_PAGE_TOOL) return fetchPage(request.params.arguments);
    const tool = moreTools.find((candidate) => candidate.definition.name === request.params.name);
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return tool.call(request.params.arguments);
  });
  return server;
}
