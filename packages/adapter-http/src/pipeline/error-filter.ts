import { CatchError, ErrorFilter } from '@inversifyjs/http-core';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { familyOfPath, serverErrorBody } from './families';

/** Anything a controller throws that is not an HTTP answer is a bug: log it, answer 500. */
@CatchError()
export class UnexpectedErrorFilter implements ErrorFilter<unknown, Request, Response, void> {
  constructor(private readonly logger: Logger) {}

  catch(error: unknown, request: Request, response: Response): void {
    this.logger.error({ err: error, path: request.path }, 'unhandled error');
    if (response.headersSent) return;
    response.status(500).json(serverErrorBody(familyOfPath(request.path)));
  }
}
