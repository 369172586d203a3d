import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted OpenAI-compatible Chat Completions server on 127.0.0.1 that streams (server-sent
 * events), as LiveKit's OpenAI plugin asks. Each request takes the next scripted turn: text, tool
 * calls, an HTTP error, an answer that is not the protocol, or none at all; the first chunk waits
 * the turn's `delayMs` (else `latencyMs`). The request bodies and their arrival times are kept for
 * the test to read.
 */

export type ScriptedTurn = (
  | { readonly text: string }
  | { readonly toolCalls: readonly { readonly name: string; readonly arguments: Record<string, unknown> }[] }
  | { readonly status: number }
  | { readonly garbage: true }
  | { readonly hang: true }
) & { readonly delayMs?: number };

export interface ChatRequest {
  readonly model: string;
  readonly temperature?: number;
  readonly messages: { role: string; content?: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
  readonly tools?: { type: 'function'; function: { name: string; description: string; parameters: unknown } }[];
  readonly [key: string]: unknown;
}

export class OpenAiStreamStub {
  readonly requests: ChatRequest[] = [];
  /** When each request arrived and when its first chunk went out (ms since the epoch). */
  readonly timings: { readonly receivedAt: number; firstChunkAt?: number }[] = [];
  /** Milliseconds before the first chunk of every answer without a `delayMs` of its own. */
  latencyMs = 0;
  /** The turn played when the script is empty (default: an HTTP 500). */
  fallback: ScriptedTurn | null = null;
  private script: ScriptedTurn[] = [];
  private counter = 0;

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<OpenAiStreamStub> {
    let stub: OpenAiStreamStub | undefined;
    const server = createServer((req, res) => void (stub as OpenAiStreamStub).handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stub = new OpenAiStreamStub(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
    return stub;
  }

  /** Queues the answers of the next requests; when none is left the stub answers 500. */
  play(...turns: ScriptedTurn[]): void {
    this.script.push(...turns);
  }

  reset(): void {
    this.requests.length = 0;
    this.timings.length = 0;
    this.script = [];
    this.latencyMs = 0;
    this.fallback = null;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
    this.requests.push(body);
    const timing: { receivedAt: number; firstChunkAt?: number } = { receivedAt: Date.now() };
    this.timings.push(timing);
    const turn = this.script.shift() ?? this.fallback ?? { status: 500 };
    if ('hang' in turn) return;
    const delay = turn.delayMs ?? this.latencyMs;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    timing.firstChunkAt = Date.now();
    if ('garbage' in turn) {
      res
        .writeHead(200, { 'content-type': 'text/event-stream' })
        .end('data: {"choices": [{"delta": \n\n<html>502</html>\n\n');
      return;
    }
    if ('status' in turn) {
      res
        .writeHead(turn.status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'scripted failure', type: 'server_error' } }));
      return;
    }
    this.counter += 1;
    const id = `chatcmpl-stub${this.counter}`;
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1764170000, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if ('text' in turn) {
      res.write(chunk({ role: 'assistant', content: '' }, null));
      for (const word of turn.text.split(/(?<= )/)) res.write(chunk({ content: word }, null));
      res.write(chunk({}, 'stop'));
    } else {
      turn.toolCalls.forEach((call, index) => {
        res.write(
          chunk(
            {
              role: 'assistant',
              tool_calls: [
                {
                  index,
                  id: `call_${this.counter}_${index}`,
                  type: 'function',
                  function: { name: call.name, arguments: JSON.stringify(call.arguments) },
                },
              ],
            },
            null,
          ),
        );
      });
      res.write(chunk({}, 'tool_calls'));
    }
    res.end('data: [DONE]\n\n');
  }
}
