import { Controller, Get, HttpResponse, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { AccountEvent, readLastEventId } from '@voiceplane/domain';
import { AccountEventStreams, TOKENS } from '@voiceplane/application';
import { refuse } from '../../pipeline/answers';
import { EventStreamWriter, lastEventIdOf, ServerSentEvent } from '../../pipeline/event-stream';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { EVENT_STREAM_ANSWERS } from './event-stream-answers';

/** Milliseconds a reader waits before it reconnects (the stream's `retry:` field). */
const RETRY_MS = 3_000;

const asEvent = (e: AccountEvent): ServerSentEvent => ({
  id: e.id,
  event: e.type,
  data: JSON.stringify({ type: e.type, occurred_at: new Date(e.at).toISOString(), data: e.data }),
});

/** The account's own events as server-sent events: what the console's pages update themselves from. */
@Controller('/api/user/events')
export class EventStreamController {
  constructor(@inject(TOKENS.AccountEventStreams) private readonly streams: AccountEventStreams) {}

  @Doc({
    summary:
      "The account's live events as server-sent events (messages received and sent, delivery statuses, conversations ended, calls started and ended); Last-Event-ID resumes",
    tag: 'Events',
    produces: 'text/event-stream',
  })
  @Get('/stream')
  async stream(@Request() req: ExpressRequest): Promise<HttpResponse> {
    const writer = new EventStreamWriter({ heartbeatMs: this.streams.heartbeatMs, retryMs: RETRY_MS });
    const opened = await this.streams.open(principalOf(req).userId, readLastEventId(lastEventIdOf(req.headers)), {
      deliver: (event) => writer.send(asEvent(event)),
      end: () => writer.close(),
    });
    if (!opened.ok) {
      writer.close();
      refuse(EVENT_STREAM_ANSWERS, opened.error);
    }
    writer.onClose(opened.value.close);
    req.res?.once('close', () => writer.close());
    // The reader may have gone while its place was taken: give the place back now, not when it lapses.
    if (req.socket.destroyed) writer.close();
    // `ready` says whether what was missed follows; when not, the reader reloads what it shows.
    writer.send({ event: 'ready', data: JSON.stringify({ resumed: opened.value.resumed }) });
    for (const event of opened.value.missed) writer.send(asEvent(event));
    opened.value.goLive();
    return writer.response();
  }
}
