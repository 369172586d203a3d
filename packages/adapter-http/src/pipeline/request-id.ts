import type { NextFunction, Request, Response } from 'express';
import { Ids } from '@voiceplane/application';
import { ApiRequest } from './request-context';

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Every response carries X-Request-Id (echoed when well-formed) and X-API-Version. */
export function requestContext(ids: Ids, version: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && CLIENT_ID.test(given) ? given : ids.token('req_', 22);
    (req as ApiRequest).ctx = { requestId, rawBody: Buffer.alloc(0) };
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('X-API-Version', version);
    next();
  };
}
