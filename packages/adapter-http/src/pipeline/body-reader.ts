import type { NextFunction, Request, Response } from 'express';
import { ApiRequest } from './request-context';
import { familyOfPath, validationBody } from './families';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH, tooDeepErrors } from './input-guard';
import { parseMultipart } from './multipart';

const MB = 1024 * 1024;
/** How much of an oversized upload is read and discarded before the 413, so the client sees it. */
const DRAIN_CAP = 64 * MB;

export interface BodyRules {
  /** Byte cap for a path (1 MB; 64 KB on automation webhook triggers). */
  limitFor(path: string): number;
  /** Paths that receive form posts besides JSON (automation webhook triggers, the sandbox checkout page). */
  acceptsForm(path: string): boolean;
  /** Paths whose raw body is handled by the route itself (provider ingress). */
  isRaw(path: string): boolean;
  /** Paths that take a file upload (`multipart/form-data`); the file lands in the request context. */
  acceptsUpload(path: string): boolean;
}

/** Knowledge-base documents: a file of up to 10 MB plus the form's other fields. */
const UPLOAD_PATH = /^\/api\/user\/knowledgebases\/[^/]+\/documents\/?$/;

export const defaultBodyRules: BodyRules = {
  limitFor: (path) => (path.startsWith('/api/hooks/') ? 64 * 1024 : UPLOAD_PATH.test(path) ? 11 * MB : MB),
  acceptsForm: (path) => path.startsWith('/api/hooks/') || path.startsWith('/api/sandbox/billing/checkout/'),
  isRaw: (path) => path.startsWith('/api/providers/'),
  acceptsUpload: (path) => UPLOAD_PATH.test(path),
};

const isJsonType = (type: string) => type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);

/**
 * Reads the body once, keeps the exact bytes, and applies the transport tolerance:
 * empty bodies are `{}` whatever the Content-Type, malformed JSON is 400, oversize is 413, a
 * non-empty non-JSON body is 415.
 */
export function bodyReader(rules: BodyRules = defaultBodyRules) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const ctx = (req as ApiRequest).ctx;
    const limit = rules.limitFor(req.path);
    const declared = Number(req.headers['content-length'] ?? 0);
    const chunks: Buffer[] = [];
    let size = 0;
    let oversize = declared > limit;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit + DRAIN_CAP) {
        // An upload that does not stop: answer now and let the connection go.
        req.removeAllListeners('data');
        tooLarge(res);
        req.destroy();
        return;
      }
      if (oversize) return;
      if (size > limit) {
        oversize = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', (e) => {
      if (!oversize) next(e);
    });
    req.on('end', () => {
      // The 413 waits until the upload has been read and discarded: answering earlier and closing a
      // socket that still has unread bytes makes the kernel reset it, and the client may lose the answer.
      if (oversize) {
        tooLarge(res);
        return;
      }
      const raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      ctx.rawBody = raw;
      if (raw.length === 0 || raw.toString('utf8').trim() === '') {
        req.body = {};
        next();
        return;
      }
      if (rules.isRaw(req.path)) {
        req.body = raw;
        next();
        return;
      }
      const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (isJsonType(type)) {
        const text = raw.toString('utf8');
        try {
          req.body = JSON.parse(text);
        } catch {
          res.status(400).json({ message: 'Malformed JSON body.' });
          return;
        }
        // JSON.parse itself does not recurse; every later walker of the body (the guard, class-transformer,
        // JSON.stringify, PostgreSQL's jsonb parser) may, so depth is refused here, before any of them.
        if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) {
          res.status(422).json(validationBody(familyOfPath(req.path), tooDeepErrors()));
          return;
        }
        next();
        return;
      }
      if (type === 'application/x-www-form-urlencoded' && rules.acceptsForm(req.path)) {
        req.body = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
        next();
        return;
      }
      if (type === 'multipart/form-data' && rules.acceptsUpload(req.path)) {
        void parseMultipart(raw, req.headers).then((form) => {
          if (!form) {
            res.status(400).json({ message: 'Malformed multipart body.' });
            return;
          }
          req.body = form.fields;
          ctx.upload = form.file ?? undefined;
          next();
        }, next);
        return;
      }
      res.status(415).json({ message: 'Unsupported Media Type.' });
    });
  };
}

function tooLarge(res: Response): void {
  if (res.headersSent) return;
  res.setHeader('Connection', 'close');
  res.status(413).json({ message: 'Request body too large.' });
}
