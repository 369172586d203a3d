import { HttpResponse, isHttpResponseSymbol } from '@inversifyjs/http-core';
import type { Request } from 'express';
import { Ctor, validateDto, ValidateOptions } from '../validation';
import type { ErrorFamily } from './families';
import { type Answer, refuse, validationAnswer } from './answers';
import type { ApiRequest } from './request-context';

/**
 * The one way a controller answers: with this status, body and headers (the body is always JSON);
 * or, for a route with an effect, with `render` of its use case's outcome. On a request with an
 * Idempotency-Key the rendered answer is stored in the transaction that concludes the use case
 * (`UnitOfWork.transaction(…, { concludes: true })`), atomically with its effect: a retry after a
 * crash between that commit and the answer gets the answer, and nothing runs twice.
 */
export function reply(statusCode: number, body: object, headers?: Record<string, string>): HttpResponse;
export function reply<T>(req: Request, run: () => Promise<T>, render: (outcome: T) => Answer): Promise<HttpResponse>;
export function reply<T>(
  first: number | Request,
  second: object | (() => Promise<T>),
  third?: Record<string, string> | ((outcome: T) => Answer),
): HttpResponse | Promise<HttpResponse> {
  if (typeof first !== 'number')
    return replyToOutcome(first, second as () => Promise<T>, third as (outcome: T) => Answer);
  return {
    [isHttpResponseSymbol]: true,
    statusCode: first,
    body: second as object,
    headers: third as Record<string, string>,
  };
}

async function replyToOutcome<T>(req: Request, run: () => Promise<T>, render: (outcome: T) => Answer) {
  const slot = (req as ApiRequest).ctx.outcomeAnswer;
  if (slot) slot.render = render as (outcome: unknown) => Answer;
  const { status, body, headers } = render(await run());
  return reply(status, body, headers ? { ...headers } : undefined);
}

/** Validates a body or query against a DTO, or ends the request with the family's 422. */
export function parse<T>(
  dto: Ctor<T>,
  input: unknown,
  family: ErrorFamily = 'standard',
  options: ValidateOptions = {},
): T {
  const r = validateDto(dto, input, options);
  if (!r.ok) refuse(validationAnswer(r.errors, family));
  return r.value;
}

/** Path ids of the wrong shape are the family's 404, never a 422. */
export function pathId(raw: unknown, notFound: Answer): number {
  if (typeof raw === 'string' && /^[0-9]{1,15}$/.test(raw) && Number(raw) > 0) return Number(raw);
  refuse({ status: notFound.status, body: notFound.body });
}
