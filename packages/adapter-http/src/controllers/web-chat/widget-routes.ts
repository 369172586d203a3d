import { gzipSync } from 'node:zlib';
import type { Application, NextFunction, Request, Response } from 'express';
import { WebWidget } from '@voiceplane/application';
import { roleOfSource } from '@voiceplane/domain';
import { answerFor } from '../../pipeline/answers';
import { openEventStream } from './sse-writer';
import { WIDGET_ANSWERS } from './widget-answers';
import { WIDGET_SCRIPT } from './widget-script';
import { widgetPage } from './widget-controller';

/** How often an open stream looks for new messages of its chat (every api instance reads the same database). */
const STREAM_POLL_MS = 400;
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

/** `GET /widget.js` and the widget's event stream: plain express routes (a script and a stream, not JSON answers). */
export function mountWidgetRoutes(app: Application, widget: () => WebWidget | null): void {
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
      const chats = widget();
      if (chats === null) {
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
      const found = await chats.visitorChat(page, { uuid, token });
      const stream = openEventStream(res);
      if (!found.ok) {
        // An EventSource cannot read an error status: the refusal is the stream's one event.
        const refusal = answerFor(WIDGET_ANSWERS, found.error);
        stream.send(null, 'refused', { status: refusal.status, ...refusal.body });
        stream.end();
        return;
      }
      const lastEventId = Number(req.headers['last-event-id'] ?? req.query.after ?? 0);
      let after = Number.isSafeInteger(lastEventId) && lastEventId > 0 ? lastEventId : 0;
      while (!stream.isClosed()) {
        for (const m of await chats.messagesAfter(found.value.conversation.id, after)) {
          after = m.id;
          if (m.source === 'system') continue;
          stream.send(m.id, 'message', {
            id: m.id,
            role: roleOfSource(m.source),
            content: m.body ?? '',
            created_at: m.createdAt.toISOString(),
          });
        }
        await Promise.race([stream.closed, new Promise((resolve) => setTimeout(resolve, STREAM_POLL_MS).unref())]);
      }
    } catch (e) {
      if (!res.headersSent) next(e);
      else res.end();
    }
  });
}
