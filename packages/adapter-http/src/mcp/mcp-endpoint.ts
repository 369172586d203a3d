import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type * as McpServer from '@modelcontextprotocol/sdk/server/index.js';
import type * as McpTransport from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type * as McpTypes from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { dispatchInProcess, InProcessAnswer } from './in-process';
import { IDEMPOTENCY_FIELD, structuredContentOf, ToolOperation, toolsFromDocument } from './tools';

interface McpSdk { readonly server: typeof McpServer; readonly transport: typeof McpTransport; readonly types: typeof McpTypes }
let sdk: McpSdk | undefined;
/** The MCP SDK (and zod and ajv under it) loads on the first MCP request, not at start. */
const mcpSdk = (): McpSdk => (sdk ??= {
  server: require('@modelcontextprotocol/sdk/server/index.js') as typeof McpServer,
  transport: require('@modelcontextprotocol/sdk/server/streamableHttp.js') as typeof McpTransport,
  types: require('@modelcontextprotocol/sdk/types.js') as typeof McpTypes,
});

/** Same cap as the JSON API's bodies. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

export interface McpEndpointOptions {
  /** The composed app: tools run their operation through it. */
  readonly app: (req: IncomingMessage, res: ServerResponse) => void;
  /** The OpenAPI document the tools are generated from. */
  readonly document: () => object;
  readonly version: string;
  readonly logger: Logger;
}

/** A tool result carrying the API's own answer: the body as structured content, or `isError` with the error body. */
function resultOf(answer: InProcessAnswer): CallToolResult {
  const text = JSON.stringify(answer.body);
  if (answer.status >= 400) return { isError: true, content: [{ type: 'text', text }], _meta: { http_status: answer.status } };
  return { content: [{ type: 'text', text }], structuredContent: structuredContentOf(answer.body) };
}

/** A validation answer in the user API's shape, for a path value the tool caller left out. */
function missingPathValues(names: string[]): InProcessAnswer {
  return {
    status: 422,
    body: { message: 'The given data was invalid.', errors: Object.fromEntries(names.map((n) => [n, [`The ${n} field is required.`]])) },
  };
}

const isValue = (v: unknown) => v !== undefined && v !== null && v !== '';

function queryOf(op: ToolOperation, args: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const name of op.queryParameters) {
    const value = args[name];
    if (!isValue(value)) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

async function callTool(o: McpEndpointOptions, op: ToolOperation, args: Record<string, unknown>, outer: Request): Promise<CallToolResult> {
  const missing = op.pathParameters.filter((name) => !isValue(args[name]));
  if (missing.length) return resultOf(missingPathValues(missing));
  const path = op.path.replace(/\{([A-Za-z_]+)\}/g, (_m, name: string) => encodeURIComponent(String(args[name])));
  const routed = new Set([...op.pathParameters, ...op.queryParameters, IDEMPOTENCY_FIELD]);
  const key = op.idempotent ? args[IDEMPOTENCY_FIELD] : undefined;
  const body = op.hasBody ? Object.fromEntries(Object.entries(args).filter(([k]) => !routed.has(k))) : undefined;
  const answer = await dispatchInProcess(o.app, {
    method: op.method,
    url: path + queryOf(op, args),
    headers: { authorization: outer.headers.authorization ?? '', ...(isValue(key) ? { 'idempotency-key': String(key) } : {}) },
    body,
    remoteAddress: outer.socket.remoteAddress,
  });
  return resultOf(answer);
}

/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, stateless — every POST gets its own server and
 * transport, so any instance can answer any message. The caller is already authenticated (same API key as the
 * user API); each tool call is the same request an HTTP client would send, dispatched in process.
 */
export function mcpEndpoint(o: McpEndpointOptions) {
  let tools: ToolOperation[] | null = null;
  let byName: Map<string, ToolOperation> | null = null;
  const toolsOf = () => {
    tools ??= toolsFromDocument(o.document());
    byName ??= new Map(tools.map((t) => [t.tool.name, t]));
    return { tools, byName };
  };

  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (req.method !== 'POST') {
      // Stateless: no event stream to open (GET) and no session to end (DELETE).
      res.setHeader('Allow', 'POST');
      res.status(405).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
      return;
    }
    try {
      const { server: { Server }, transport: { StreamableHTTPServerTransport }, types: { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } } = mcpSdk();
      const server = new Server({ name: 'voiceplane', version: o.version }, { capabilities: { tools: { listChanged: false } } });
      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolsOf().tools.map((t) => t.tool) }));
      server.setRequestHandler(CallToolRequestSchema, async (request) => {
        const op = toolsOf().byName.get(request.params.name);
        if (!op) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
        return callTool(o, op, request.params.arguments ?? {}, req);
      });
      // No session id: nothing is kept between messages. Plain JSON answers, no event stream to hold open.
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: MAX_MESSAGE_BYTES,
      });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (e) {
      o.logger.error({ err: e }, 'mcp request failed');
      next(e);
    }
  };
}
