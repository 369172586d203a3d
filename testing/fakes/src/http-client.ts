import { OutboundHttpClient, OutboundRequest, OutboundResponse } from '@voiceplane/application';

/** What the receiver does with one request: the parts of the answer that matter to the test. */
export type ScriptedAnswer = (
  request: OutboundRequest,
) => Partial<OutboundResponse> | Promise<Partial<OutboundResponse>>;

/**
 * Answers outbound requests from a script, one answer per request in order, and remembers every
 * request. A status without an error reads as the guarded client reports it: 2xx ok, else `http_error`.
 */
export class ScriptedHttpClient implements OutboundHttpClient {
  readonly requests: OutboundRequest[] = [];
  private readonly script: ScriptedAnswer[] = [];

  answer(...answers: Array<ScriptedAnswer | Partial<OutboundResponse>>): void {
    for (const a of answers) this.script.push(typeof a === 'function' ? a : () => a);
  }

  async send(request: OutboundRequest): Promise<OutboundResponse> {
    this.requests.push(request);
    const next = this.script.shift();
    if (!next) throw new Error(`ScriptedHttpClient: no answer scripted for ${request.method} ${request.url}`);
    const answer = await next(request);
    const statusCode = answer.statusCode ?? null;
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    return {
      ok,
      statusCode,
      headers: {},
      body: '',
      durationMs: 25,
      error: ok ? null : statusCode === null ? 'connection_failed' : 'http_error',
      ...answer,
    };
  }
}
