import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { redactPathSecrets } from '@voiceplane/application';
import { requestIdOf } from './request-context';

/**
 * One line per request at info: id, method, path (never the query, headers or body, which may
 * carry credentials; a hook URL's token is redacted), status and time. Written from the `finish` event with the shared logger,
 * so no child logger or serializer runs per request (pino-http did both, a visible share of a
 * cheap request's CPU).
 */
export function requestLog(logger: Logger) {
  const log = logRequest(logger);
  return (req: Request, res: Response, next: NextFunction): void => {
    log(req, res);
    next();
  };
}

/** The same, as a step of the pipeline's first layer (see http-app.ts). */
export function logRequest(logger: Logger) {
  return (req: Request, res: Response): void => {
    const started = performance.now();
    const line = () => ({
      req: { id: requestIdOf(req), method: req.method, url: redactPathSecrets(req.originalUrl.split('?')[0]) },
      res: { statusCode: res.statusCode },
      responseTime: Math.round(performance.now() - started),
    });
    res.once('finish', () => {
      if (res.statusCode >= 500) logger.error(line(), 'request errored');
      else logger.info(line(), 'request completed');
    });
    res.once('close', () => {
      if (!res.writableFinished) logger.info(line(), 'request aborted');
    });
  };
}
