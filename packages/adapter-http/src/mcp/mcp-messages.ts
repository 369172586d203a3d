import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../pipeline/input-guard';
import { ApiRequest, requestIdOf } from '../pipeline/request-context';
import { mcpSdk } from './sdk';

/**
 * The most messages one JSON-RPC batch may hold. Each counts against the key's rate limit as a
 * request of its own; the cap bounds what one HTTP request can make the server do at once.
 */
export const MAX_BATCH_CALLS = 20;
/** Same cap as the JSON API's bodies. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
/** A tool's arguments may nest as deep as an API body, inside the batch, the message and its params. */
const MAX_MESSAGE_DEPTH = MAX_JSON_DEPTH + 3;

/**
 * The tool name a malformed request is carried under to the protocol's handler, which answers it
 * with its invalid-params error: no real tool name holds a NUL.
 */
const REFUSED = '\u0000refused:';

/** What the reader hands the endpoint: the message (or batch) to run, and why each replaced request is refused. */
export interface McpMessages {
  readonly body: unknown;
  readonly refusals: readonly string[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isJsonType = (req: Request) => /^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '');

/** The SDK's own request schemas, so a message it would fail to parse (an internal error there) is refused here. */
function schemaOf(method: string): { safeParse(value: unknown): { success: boolean } } | undefined {
  const { types } = mcpSdk();
  const schemas: Record<string, { safeParse(value: unknown): { success: boolean } }> = {
    initialize: types.InitializeRequestSchema,
    ping: types.PingRequestSchema,
    'tools/list': types.ListToolsRequestSchema,
    'tools/call': types.CallToolRequestSchema,
  };
  return Object.hasOwn(schemas, method) ? schemas[method] : undefined;
}

/** Why a request's params are unusable, in a short sentence; null when they fit. */
function paramsProblem(message: Json & { method: string }): string | null {
  if (message.method === 'tools/call') {
    const params = message.params;
    if (!isObject(params)) return 'Invalid params: params must be an object naming the tool.';
    if (typeof params.name !== 'string') return 'Invalid params: the tool name must be a string.';
    if (params.arguments !== undefined && !isObject(params.arguments))
      return 'Invalid params: arguments must be an object.';
  }
  const schema = schemaOf(message.method);
  return schema && !schema.safeParse(message).success ? `Invalid params for ${message.method}.` : null;
}

/** A request (it has a method and an id) whose params do not fit becomes a call of the refused tool; everything else is left to the transport. */
function judged(message: unknown, refusals: string[]): unknown {
  if (!isObject(message) || typeof message.method !== 'string' || !('id' in message)) return message;
  const problem = paramsProblem(message as Json & { method: string });
  if (problem === null) return message;
  refusals.push(problem);
  return {
    jsonrpc: message.jsonrpc,
    id: message.id,
    method: 'tools/call',
    params: { name: `${REFUSED}${refusals.length - 1}` },
  };
}

/** Why the refused tool `name` stands for a malformed request, or null for any other name. */
export function refusalOf(name: string, messages: McpMessages | undefined): string | null {
  if (!name.startsWith(REFUSED)) return null;
  return messages?.refusals[Number(name.slice(REFUSED.length))] ?? 'Invalid params.';
}

/** The messages the reader left for the endpoint on this request (none when the transport is to judge the body itself). */
export const messagesOf = (res: Response): McpMessages | undefined => res.locals.mcpMessages as McpMessages | undefined;

/**
 * Reads a JSON `/mcp` message before the rate limit and the transport: refuses what no part of the
 * server should walk (too large, nested too deep, a batch too long or empty) with the protocol's
 * errors, counts the batch's messages for the rate limit, and replaces each request whose params
 * the SDK could not parse by a call it answers with invalid params. Anything not JSON is left to the
 * transport, which answers it in the protocol's terms.
 */
export function mcpMessageReader(logger: Logger) {
  const read = express.raw({ limit: MAX_MESSAGE_BYTES, inflate: false, type: () => true });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'POST' || !isJsonType(req)) return next();
    const refuse = (status: number, code: number, message: string) => {
      logger.debug({ requestId: requestIdOf(req), status, code, reason: message }, 'mcp message refused');
      if (status === 413) res.setHeader('Connection', 'close');
      res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
    };
    read(req, res, (error?: unknown) => {
      const kind = (error as { type?: string } | undefined)?.type;
      if (kind === 'entity.too.large')
        return refuse(413, -32000, `Payload Too Large: a message may be at most ${MAX_MESSAGE_BYTES} bytes`);
      if (kind === 'encoding.unsupported' || kind === 'charset.unsupported')
        return refuse(415, -32000, 'Unsupported Media Type');
      if (error)
        return void (res.headersSent || req.destroyed
          ? undefined
          : refuse(400, -32700, 'Parse error: the message could not be read'));
      const text = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
      if (jsonNestsDeeperThan(text, MAX_MESSAGE_DEPTH))
        return refuse(400, -32600, `Invalid Request: nested more than ${MAX_MESSAGE_DEPTH} levels deep`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return refuse(400, -32700, 'Parse error: Invalid JSON');
      }
      if (Array.isArray(body) && body.length === 0) return refuse(400, -32600, 'Invalid Request: an empty batch');
      if (Array.isArray(body) && body.length > MAX_BATCH_CALLS) {
        return refuse(400, -32600, `Invalid Request: a batch may hold at most ${MAX_BATCH_CALLS} messages`);
      }
      const refusals: string[] = [];
      const judgedBody = Array.isArray(body) ? body.map((m) => judged(m, refusals)) : judged(body, refusals);
      res.locals.mcpMessages = { body: judgedBody, refusals } satisfies McpMessages;
      (req as ApiRequest).ctx.calls = Array.isArray(body) ? body.length : 1;
      next();
    });
  };
}
