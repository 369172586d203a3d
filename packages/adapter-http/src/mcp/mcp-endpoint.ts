import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { isValidIdempotencyKey } from '@voiceplane/domain';
import { familyOfPath, serverErrorBody, validationBody } from '../pipeline/families';
import { requestIdOf } from '../pipeline/request-context';
import { dispatchInProcess, InProcessAnswer } from './in-process';
import { MAX_MESSAGE_BYTES, McpMessages, messagesOf, refusalOf } from './mcp-messages';
import { mcpSdk } from './sdk';
import { IDEMPOTENCY_FIELD, structuredContentOf, ToolOperation, toolsFromDocument } from './tools';

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
  if (answer.status >= 400)
    return { isError: true, content: [{ type: 'text', text }], _meta: { http_status: answer.status } };
  return { content: [{ type: 'text', text }], structuredContent: structuredContentOf(answer.body) };
}

const isValue = (v: unknown) => v !== undefined && v !== null && v !== '';
/** Half of a surrogate pair: no URL can carry it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isPathValue = (v: unknown) =>
  (typeof v === 'string' && !LONE_SURROGATE.test(v)) || (typeof v === 'number' && Number.isSafeInteger(v));

/**
 * What is wrong with the arguments before any request is made, as the API's validation errors: a
 * path value left out (which must never reach a different route) or not usable in a path, an
 * `idempotency_key` that could not be the header.
 */
function argumentErrors(op: ToolOperation, args: Record<string, unknown>): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {};
  for (const name of op.pathParameters) {
    if (!isValue(args[name])) errors[name] = [`The ${name} field is required.`];
    else if (!isPathValue(args[name])) errors[name] = [`The ${name} field must be a string or an integer.`];
  }
  const key = args[IDEMPOTENCY_FIELD];
  if (op.idempotent && key !== undefined && key !== null && !(typeof key === 'string' && isValidIdempotencyKey(key))) {
    errors[IDEMPOTENCY_FIELD] = ['The idempotency key must be a string of 1 to 255 printable ASCII characters.'];
  }
  return Object.keys(errors).length ? errors : null;
}

function queryOf(op: ToolOperation, args: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const name of op.queryParameters) {
    const value = args[name];
    if (!isValue(value)) continue;
    for (const item of Array.isArray(value) ? value : [value])
      search.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

async function callTool(
  o: McpEndpointOptions,
  op: ToolOperation,
  args: Record<string, unknown>,
  outer: Request,
): Promise<CallToolResult> {
  const errors = argumentErrors(op, args);
  if (errors) {
    o.logger.debug(
      { requestId: requestIdOf(outer), tool: op.tool.name, fields: Object.keys(errors) },
      'mcp message refused',
    );
    return resultOf({ status: 422, body: validationBody(familyOfPath(op.path), errors) });
  }
  const path = op.path.replace(/\{([A-Za-z_]+)\}/g, (_m, name: string) => encodeURIComponent(String(args[name])));
  const routed = new Set([...op.pathParameters, ...op.queryParameters, IDEMPOTENCY_FIELD]);
  const key = op.idempotent ? args[IDEMPOTENCY_FIELD] : undefined;
  const body = op.hasBody ? Object.fromEntries(Object.entries(args).filter(([k]) => !routed.has(k))) : undefined;
  const answer = await dispatchInProcess(o.app, {
    method: op.method,
    url: path + queryOf(op, args),
    headers: {
      authorization: outer.headers.authorization ?? '',
      ...(typeof key === 'string' ? { 'idempotency-key': key } : {}),
    },
    body,
    remoteAddress: outer.socket.remoteAddress,
  });
  return resultOf(answer);
}

/**
 * The id of a lone `tools/list` request the transport would answer (it accepts JSON and the event
 * stream, and names a protocol version the SDK speaks, if any), or null.
 */
function plainToolsList(req: Request, messages: McpMessages | undefined): string | number | null {
  const m = messages?.body as { jsonrpc?: unknown; id?: unknown; method?: unknown } | undefined;
  if (!m || Array.isArray(m) || m.jsonrpc !== '2.0' || m.method !== 'tools/list') return null;
  if (typeof m.id !== 'string' && !(typeof m.id === 'number' && Number.isSafeInteger(m.id))) return null;
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return null;
  const version = req.headers['mcp-protocol-version'];
  if (version !== undefined && !mcpSdk().types.SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) return null;
  return m.id;
}

/** The client takes a gzip body (`Accept-Encoding: gzip`, not refused with `q=0`). */
function acceptsGzip(req: Request): boolean {
  const header = String(req.headers['accept-encoding'] ?? '');
  return header.split(',').some((part) => {
    const [coding, ...params] = part
      .trim()
      .toLowerCase()
      .split(';')
      .map((p) => p.trim());
    return coding === 'gzip' && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}

/** How many request ids keep their compressed tools/list answer (clients reuse a few small ids). */
const COMPRESSED_IDS = 32;

/**
 * The compressed tools/list answers by request id: the list never changes once made, so each id is
 * compressed once (the oldest dropped past `COMPRESSED_IDS`). About a seventh of the text on the wire.
 */
function compressedAnswers() {
  const byId = new Map<string, Buffer>();
  return {
    of(id: string, text: string): Buffer {
      let body = byId.get(id);
      if (!body) {
        body = gzipSync(text);
        byId.set(id, body);
        if (byId.size > COMPRESSED_IDS) byId.delete(byId.keys().next().value as string);
      }
      return body;
    },
  };
}

/** A JSON-RPC error the SDK answers with exactly this code and message. */
const protocolError = (code: number, message: string) => Object.assign(new Error(message), { code });

/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, stateless — every POST gets its own server and
 * transport, so any instance can answer any message. The caller is already authenticated (same API key as the
 * user API); each tool call is the same request an HTTP client would send, dispatched in process.
 */
export function mcpEndpoint(o: McpEndpointOptions) {
  const gzipped = compressedAnswers();
  // Made once, on the first message, and answered as is from then on (`listText` is the list as JSON).
  let tools: { list: { tools: Tool[] }; listText: string; byName: Map<string, ToolOperation> } | null = null;
  const toolsOf = () => {
    if (tools) return tools;
    const operations = toolsFromDocument(o.document());
    const list = { tools: operations.map((t) => t.tool) };
    tools = { list, listText: JSON.stringify(list), byName: new Map(operations.map((t) => [t.tool.name, t])) };
    return tools;
  };

  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (req.method !== 'POST') {
      // Stateless: no event stream to open (GET) and no session to end (DELETE).
      res.setHeader('Allow', 'POST');
      res.status(405).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
      return;
    }
    const messages = messagesOf(res);
    const listId = plainToolsList(req, messages);
    if (listId !== null) {
      // The message clients send most, answered from the cached text: no server, no parsing, no serializing.
      const text = `{"result":${toolsOf().listText},"jsonrpc":"2.0","id":${JSON.stringify(listId)}}`;
      res.status(200).type('application/json').setHeader('Vary', 'Accept-Encoding');
      if (!acceptsGzip(req)) {
        res.send(text);
        return;
      }
      res.setHeader('Content-Encoding', 'gzip');
      res.send(gzipped.of(JSON.stringify(listId), text));
      return;
    }
    try {
      const {
        server: { Server },
        transport: { StreamableHTTPServerTransport },
        types: { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema },
      } = mcpSdk();
      const refused = (reason: string) => {
        o.logger.debug({ requestId: requestIdOf(req), reason }, 'mcp message refused');
        return protocolError(ErrorCode.InvalidParams, reason);
      };
      const server = new Server(
        { name: 'voiceplane', version: o.version },
        { capabilities: { tools: { listChanged: false } } },
      );
      server.setRequestHandler(ListToolsRequestSchema, async () => toolsOf().list);
      server.setRequestHandler(CallToolRequestSchema, async (request) => {
        const { name } = request.params;
        const refusal = refusalOf(name, messages);
        if (refusal !== null) throw refused(refusal);
        const op = toolsOf().byName.get(name);
        if (!op) throw refused(`Unknown tool: ${name.slice(0, 100)}`);
        try {
          return await callTool(o, op, request.params.arguments ?? {}, req);
        } catch (e) {
          // Never the protocol's internal error with this process's message: the API's own answer to a failure.
          o.logger.error({ err: e, tool: name }, 'mcp tool call failed');
          return resultOf({ status: 500, body: serverErrorBody(familyOfPath(op.path)) });
        }
      });
      // No session id: nothing is kept between messages. Plain JSON answers, no event stream to hold open.
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        maxRequestBodySize: MAX_MESSAGE_BYTES,
      });
      // The transport's own refusals (406, 415, a body that is no JSON-RPC message).
      transport.onerror = (e) =>
        o.logger.debug({ requestId: requestIdOf(req), reason: e.message }, 'mcp message refused');
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, messages?.body);
    } catch (e) {
      o.logger.error({ err: e }, 'mcp request failed');
      next(e);
    }
  };
}
