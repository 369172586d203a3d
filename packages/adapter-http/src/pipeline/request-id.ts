import type { Request, Response } from 'express';
import { Ids } from '@voiceplane/application';
import { ApiRequest } from './request-context';

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Every response carries X-Request-Id (echoed when well-formed) and X-API-Version. A step of the
 * pipeline's first layer (see http-app.ts), not a layer of its own.
 */
export function requestContext(ids: Ids, version: string) {
  return (req: Request, res: Response): void => {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && CLIENT_ID.test(given) ? given : ids.token('req_', 22);
    (req as ApiRequest).ctx = { requestId, rawBody: Buffer.alloc(0) };
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('X-API-Version', version);
  };
}
