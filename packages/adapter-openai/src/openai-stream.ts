import axios, { AxiosInstance } from 'axios';
import type { Readable } from 'node:stream';

/** A completion's message, whole: what the streamed chunks add up to. */
export interface StreamedMessage {
  readonly content: string;
  readonly tool_calls: { id?: string; function: { name: string; arguments: string } }[];
}

interface ChunkToolCall {
  readonly index?: unknown;
  readonly id?: unknown;
  readonly function?: { readonly name?: unknown; readonly arguments?: unknown };
}

/**
 * One streamed Chat Completions call (`stream: true`): the text is handed to `onText` as the
 * server's `data:` chunks bring it, function calls are put together from their pieces (by `index`),
 * and the whole message comes back once the server says `[DONE]` or ends. A server that answers
 * a plain JSON completion instead (one that does not stream) is read as such. The whole call is
 * bounded by `timeoutMs`; every failure throws `fail(reason)`, never carrying the request.
 */
export async function streamCompletion(
  http: AxiosInstance,
  payload: object,
  options: {
    readonly onText: (delta: string) => void;
    readonly timeoutMs: number;
    readonly who: string;
    readonly fail: (reason: string) => Error;
  },
): Promise<StreamedMessage> {
  const { who, fail } = options;
  const abort = new AbortController();
  const deadline = setTimeout(() => abort.abort(), options.timeoutMs);
  let timedOut = false;
  abort.signal.addEventListener('abort', () => (timedOut = true));
  try {
    const response = await http
      .post<Readable>('chat/completions', JSON.stringify({ ...payload, stream: true }), {
        responseType: 'stream',
        headers: { Accept: 'text/event-stream, application/json' },
        signal: abort.signal,
      })
      .catch((e: unknown) => {
        throw fail(
          `${who} ${timedOut || (axios.isAxiosError(e) && e.code === 'ECONNABORTED') ? 'timed out' : 'could not be reached'}`,
        );
      });
    const type = String(response.headers['content-type'] ?? '');
    if (response.status < 200 || response.status > 299 || !type.includes('text/event-stream')) {
      const text = await readAll(response.data).catch(() => '');
      const body = parseJson(text);
      if (response.status < 200 || response.status > 299) {
        const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
        throw fail(`${who} answered ${response.status}${typeof message === 'string' ? `: ${message}` : ''}`);
      }
      return wholeAnswer(body, options.onText);
    }
    return await readChunks(response.data, options.onText, fail, who);
  } catch (e) {
    // The deadline cut the stream: whatever the read then failed with, the answer took too long.
    if (timedOut) throw fail(`${who} timed out`);
    throw e;
  } finally {
    clearTimeout(deadline);
  }
}

async function readChunks(
  body: Readable,
  onText: (delta: string) => void,
  fail: (reason: string) => Error,
  who: string,
): Promise<StreamedMessage> {
  let content = '';
  const calls: { id?: string; name: string; arguments: string }[] = [];
  let pending = '';
  // A stream that ends with neither `[DONE]` nor a finish reason was cut off: half a reply is no reply.
  let finished = false;
  const take = (block: string): boolean => {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data === '') return false;
    if (data === '[DONE]') return true;
    const chunk = parseJson(data) as {
      choices?: { delta?: { content?: unknown; tool_calls?: unknown }; finish_reason?: unknown }[];
      error?: { message?: unknown };
    } | null;
    if (chunk?.error !== undefined) {
      const message = chunk.error?.message;
      throw fail(`${who} answered an error${typeof message === 'string' ? `: ${message}` : ''}`);
    }
    if (typeof chunk?.choices?.[0]?.finish_reason === 'string') finished = true;
    const delta = chunk?.choices?.[0]?.delta;
    if (typeof delta?.content === 'string' && delta.content !== '') {
      content += delta.content;
      onText(delta.content);
    }
    if (Array.isArray(delta?.tool_calls))
      for (const piece of delta.tool_calls as ChunkToolCall[]) {
        const index = typeof piece.index === 'number' ? piece.index : calls.length;
        const call = (calls[index] ??= { name: '', arguments: '' });
        if (typeof piece.id === 'string' && piece.id !== '') call.id = piece.id;
        if (typeof piece.function?.name === 'string') call.name += piece.function.name;
        if (typeof piece.function?.arguments === 'string') call.arguments += piece.function.arguments;
      }
    return false;
  };
  try {
    for await (const raw of body) {
      pending += (raw as Buffer).toString('utf8').replace(/\r\n?/g, '\n');
      for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
        const block = pending.slice(0, end);
        pending = pending.slice(end + 2);
        if (take(block)) {
          body.destroy();
          return assemble(content, calls);
        }
      }
    }
  } catch (e) {
    if (e instanceof Error && e.message.startsWith(who)) throw e;
    throw fail(`${who} stopped answering mid-reply`);
  }
  if (take(pending) || finished) return assemble(content, calls);
  throw fail(`${who} stopped answering mid-reply`);
}

function assemble(content: string, calls: readonly ({ id?: string; name: string; arguments: string } | undefined)[]) {
  return {
    content,
    tool_calls: calls.flatMap((c) =>
      c === undefined ? [] : [{ ...(c.id ? { id: c.id } : {}), function: { name: c.name, arguments: c.arguments } }],
    ),
  };
}

/** A server that did not stream: its one completion, its text handed over at once. */
function wholeAnswer(body: unknown, onText: (delta: string) => void): StreamedMessage {
  const message = (body as { choices?: { message?: { content?: unknown; tool_calls?: unknown } }[] } | null)
    ?.choices?.[0]?.message;
  const content = typeof message?.content === 'string' ? message.content : '';
  if (content !== '') onText(content);
  return { content, tool_calls: Array.isArray(message?.tool_calls) ? message.tool_calls : [] };
}

async function readAll(body: Readable): Promise<string> {
  let text = '';
  for await (const chunk of body) text += (chunk as Buffer).toString('utf8');
  return text;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}
