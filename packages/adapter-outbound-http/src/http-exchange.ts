import type { ClientRequest, IncomingHttpHeaders, IncomingMessage, RequestOptions } from 'node:http';
import type { OutboundError, OutboundResponse } from '@voiceplane/application';

export type ExchangeResult = Omit<OutboundResponse, 'durationMs'>;

type StartRequest = (options: RequestOptions, onResponse: (response: IncomingMessage) => void) => ClientRequest;

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

export function failedBeforeSending(error: OutboundError): ExchangeResult {
  return { ok: false, statusCode: null, headers: NO_HEADERS, body: '', error };
}

/**
 * One request and its answer. Writes `body`, reads the answer as a counted stream and tears the
 * socket down the moment it passes `maxBytes` or `budgetMs` runs out. Network outcomes always
 * resolve to a result; only programming errors (such as an invalid header) reject.
 */
export function exchange(
  start: StartRequest,
  options: RequestOptions,
  body: Buffer | null,
  budgetMs: number,
  maxBytes: number,
  keepBytes = false,
): Promise<ExchangeResult> {
  return new Promise((settle) => {
    let settled = false;
    let statusCode: number | null = null;
    let headers = NO_HEADERS;

    const finish = (result: ExchangeResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      settle(result);
    };
    const abandon = (error: OutboundError): void => {
      if (settled) return;
      // destroy() rather than letting the socket go back to the pool: its stream is in an unknown state.
      request.destroy();
      finish({ ok: false, statusCode, headers, body: '', error });
    };

    const request = start(options, (response) => {
      statusCode = response.statusCode ?? null;
      headers = flattenHeaders(response.headers);
      if (Number(response.headers['content-length']) > maxBytes) return abandon('response_too_large');

      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBytes) return abandon('response_too_large');
        chunks.push(chunk);
      });
      response.on('end', () => {
        const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
        const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received);
        finish({
          ok,
          statusCode,
          headers,
          body: bytes.toString('utf8'),
          ...(keepBytes ? { bytes } : {}),
          error: ok ? null : 'http_error',
        });
      });
      response.on('error', () => abandon('connection_failed'));
      response.on('close', () => {
        if (!response.complete) abandon('connection_failed');
      });
    });
    const timer = setTimeout(() => abandon('timeout'), budgetMs);
    request.on('error', () => abandon('connection_failed'));
    request.end(body ?? undefined);
  });
}

function flattenHeaders(raw: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name of Object.keys(raw)) {
    const value = raw[name];
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
