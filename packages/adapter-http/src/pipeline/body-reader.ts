import express, { type NextFunction, type Request, type Response } from 'express';
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
const KNOWLEDGE_UPLOAD_PATH = /^\/api\/user\/knowledgebases\/[^/]+\/documents\/?$/i;
/** A bulk lead import: up to 10,000 leads as JSON, or a CSV file of up to 10 MB. */
const LEAD_IMPORT_PATH = /^\/api\/user\/campaign\/[^/]+\/leads\/import\/?$/i;
const isUploadPath = (path: string) => KNOWLEDGE_UPLOAD_PATH.test(path) || LEAD_IMPORT_PATH.test(path);
/** Paths in any case, as the router matches them. */
const under = (path: string, prefix: string) => path.toLowerCase().startsWith(prefix);

export const defaultBodyRules: BodyRules = {
  limitFor: (path) => (under(path, '/api/hooks/') ? 64 * 1024 : isUploadPath(path) ? 11 * MB : MB),
  acceptsForm: (path) => under(path, '/api/hooks/') || under(path, '/api/sandbox/billing/checkout/'),
  isRaw: (path) => under(path, '/api/providers/'),
  acceptsUpload: isUploadPath,
};

const contentType = (req: Request) => (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
const isJsonType = (type: string) => type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);

type Middleware = (req: Request, res: Response, next: NextFunction) => void;
interface Parsers {
  readonly json: Middleware;
  readonly raw: Middleware;
}

/** express's `verify` hook: the exact bytes, kept before any parsing (webhook signatures are over them). */
const keepRawBytes = (req: unknown, _res: unknown, buf: Buffer) => {
  (req as ApiRequest).ctx.rawBody = buf;
};

/**
 * Reads the body once with express's parsers, keeps the exact bytes, and applies the transport
 * tolerance: empty (or blank) bodies are `{}` whatever the Content-Type, malformed JSON is 400,
 * oversize is 413, a non-empty body of a type the path does not take is 415.
 *
 * JSON goes through `express.json`; everything else is read as bytes by `express.raw` and then
 * judged here: provider ingress gets the bytes, uploads go to the multipart reader, and forms
 * become a flat map of their last values (`URLSearchParams`) — `express.urlencoded` would turn a
 * repeated field into an array and a bracketed name into a nested object, which the automation
 * hook payload (a flat map of strings) must not become. Compressed bodies are not inflated.
 */
export function bodyReader(rules: BodyRules = defaultBodyRules): Middleware {
  // One pair per byte cap: express's parsers take their limit when made.
  const byLimit = new Map<number, Parsers>();
  const parsersFor = (limit: number): Parsers => {
    let parsers = byLimit.get(limit);
    if (!parsers) {
      parsers = {
        json: express.json({ limit, strict: false, inflate: false, type: () => true, verify: keepRawBytes }),
        raw: express.raw({ limit, inflate: false, type: () => true, verify: keepRawBytes }),
      };
      byLimit.set(limit, parsers);
    }
    return parsers;
  };

  return (req, res, next) => {
    // No Content-Length and no Transfer-Encoding: there is no body to read (express's parsers skip such
    // a request too), so neither parser nor drain counter is set up; the body is `{}` as for any empty one.
    if (req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined) {
      req.body = {};
      return next();
    }
    const limit = rules.limitFor(req.path);
    capDrain(req, res, limit);
    const type = contentType(req);
    const json = isJsonType(type) && !rules.isRaw(req.path);
    const { json: readJson, raw: readRaw } = parsersFor(limit);
    (json ? readJson : readRaw)(req, res, (error?: unknown) => {
      const ctx = (req as ApiRequest).ctx;
      ctx.rawBody ??= Buffer.alloc(0);
      const raw = ctx.rawBody;
      if (error) return refuse(error, req, res, next);
      if (raw.length === 0 || raw.toString('utf8').trim() === '') {
        req.body = {};
        return next();
      }
      if (json) {
        // JSON.parse itself does not recurse; every later walker of the body (the guard, class-transformer,
        // JSON.stringify, PostgreSQL's jsonb parser) may, so depth is refused here, before any of them.
        if (jsonNestsDeeperThan(raw.toString('utf8'), MAX_JSON_DEPTH)) {
          res.status(422).json(validationBody(familyOfPath(req.path), tooDeepErrors()));
          return;
        }
        return next();
      }
      if (rules.isRaw(req.path)) {
        req.body = raw;
        return next();
      }
      if (type === 'application/x-www-form-urlencoded' && rules.acceptsForm(req.path)) {
        req.body = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
        return next();
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
      unsupported(res);
    });
  };
}

/** express's refusals (an `http-errors` error with a `type`) in this API's words. */
function refuse(error: unknown, req: Request, res: Response, next: NextFunction): void {
  const kind = (error as { type?: string }).type;
  if (kind === 'entity.too.large') return tooLarge(res);
  if (kind === 'entity.parse.failed') {
    // A blank JSON body is an empty one (`{}`), as for every other type.
    if ((req as ApiRequest).ctx.rawBody!.toString('utf8').trim() === '') {
      req.body = {};
      return next();
    }
    res.status(400).json({ message: 'Malformed JSON body.' });
    return;
  }
  // Content-Encoding (gzip, …) or a JSON charset express cannot decode: not a body this API reads.
  if (kind === 'encoding.unsupported' || kind === 'charset.unsupported') return unsupported(res);
  // The client went away or sent fewer bytes than it declared.
  if (!res.headersSent) next(error);
}

/**
 * express reads an oversized upload to its end before answering 413 (answering earlier and closing
 * a socket with unread bytes makes the kernel reset it, and the client may lose the answer), but
 * with no end: an upload that goes on past DRAIN_CAP more is answered now and let go.
 */
function capDrain(req: Request, res: Response, limit: number): void {
  let size = 0;
  const count = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= limit + DRAIN_CAP) return;
    req.off('data', count);
    tooLarge(res);
    req.destroy();
  };
  req.on('data', count);
  req.once('end', () => req.off('data', count));
}

function unsupported(res: Response): void {
  res.status(415).json({ message: 'Unsupported Media Type.' });
}

function tooLarge(res: Response): void {
  if (res.headersSent) return;
  res.setHeader('Connection', 'close');
  res.status(413).json({ message: 'Request body too large.' });
}
