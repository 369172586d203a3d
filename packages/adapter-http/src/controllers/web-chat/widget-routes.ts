import { gzipSync } from 'node:zlib';
import type { Application, NextFunction, Request, Response } from 'express';
import { LiveChatEvent, WebWidget, WidgetStreams } from '@voiceplane/application';
import { answerFor } from '../../pipeline/answers';
import { EventStreamWriter, lastEventIdOf, ServerSentEvent } from '../../pipeline/event-stream';
import { WIDGET_ANSWERS } from './widget-answers';
import { WIDGET_SCRIPT } from './widget-script';
import { widgetPage } from './widget-controller';

/** Milliseconds a visitor's browser waits before it reconnects (the stream's `retry:` field). */
const RETRY_MS = 2_000;
const SCRIPT_GZIPPED = gzipSync(WIDGET_SCRIPT);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Pages on other sites call the widget routes: any origin may ask (the preflight and the CORS
 * headers echo it), and each request is then judged against the widget's allowed origins. No
 * cookies are read or allowed, so a page can only act with what it holds: the widget key and its
 * visitor token.
 */
export function widgetCors(req: Request, res: Response, next: NextFunction): void {
  const origin = req.headers.origin;
  if (typeof origin === 'string') {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
  }
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Visitor-Token');
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return;
  }
  next();
}

/** What the widget's stream writes: stored messages carry their id (a reconnect resumes after it), drafts none. */
function widgetEvent(e: LiveChatEvent): ServerSentEvent {
  switch (e.kind) {
    case 'message':
      return {
        id: String(e.message.id),
        event: 'message',
        data: JSON.stringify({
          id: e.message.id,
          role: e.message.role,
          content: e.message.content,
          created_at: e.message.created_at,
        }),
      };
    case 'draft':
      return { event: 'message.delta', data: JSON.stringify({ draft: e.draft, delta: e.delta }) };
    case 'discarded':
      return { event: 'message.discarded', data: JSON.stringify({ draft: e.draft }) };
  }
}

/** The message id a reconnecting widget resumes after: `Last-Event-ID`, or `after` on its first open. */
function resumeAfter(req: Request): number {
  const given = Number(lastEventIdOf(req.headers) ?? req.query.after ?? 0);
  return Number.isSafeInteger(given) && given > 0 ? given : 0;
}

export interface WidgetServices {
  readonly widget: WebWidget;
  readonly streams: WidgetStreams;
}

/** `GET /widget.js` and the widget's event stream: plain express routes (a script and a stream, not JSON answers). */
export function mountWidgetRoutes(app: Application, services: () => WidgetServices | null): void {
  app.get('/widget.js', (req, res) => {
    res.setHeader('Content-Type', 'application/javascript; charset=utf-8');
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      res.setHeader('Content-Encoding', 'gzip');
      res.setHeader('Vary', 'Accept-Encoding');
      res.end(SCRIPT_GZIPPED);
      return;
    }
    res.end(WIDGET_SCRIPT);
  });
  app.get('/api/widget/:key/conversations/:uuid/events', async (req, res, next) => {
    try {
      const found = services();
      if (found === null) {
        res.status(404).json({ message: 'Not found.' });
        return;
      }
      const page = widgetPage(req, String(req.params.key));
      const uuid = String(req.params.uuid);
      const token = req.query.token;
      if (!UUID.test(uuid) || typeof token !== 'string' || token === '') {
        res.status(404).json({ status: false, error: 'Conversation not found' });
        return;
      }
      const chat = await found.widget.visitorChat(page, { uuid, token });
      const writer = new EventStreamWriter({ heartbeatMs: found.streams.heartbeatMs, retryMs: RETRY_MS });
      writer.pipeTo(res);
      if (!chat.ok) {
        // An EventSource cannot read an error status: the refusal is the stream's one event.
        const refusal = answerFor(WIDGET_ANSWERS, chat.error);
        // The body's own `status` is the family's `false`: the HTTP status goes beside it.
        writer.send({ event: 'refused', data: JSON.stringify({ ...refusal.body, http_status: refusal.status }) });
        writer.close();
        return;
      }
      const opened = await found.streams.open(chat.value.conversation, resumeAfter(req), {
        deliver: (event) => writer.send(widgetEvent(event)),
        end: () => writer.close(),
      });
      writer.onClose(opened.close);
    } catch (e) {
      if (!res.headersSent) next(e);
      else res.end();
    }
  });
}
