import { ErrorHttpResponse, HttpResponse, isHttpResponseSymbol } from '@inversifyjs/http-core';
import { FieldErrors } from '@voiceplane/domain';
import { Ctor, validateDto, ValidateOptions } from '../validation';
import { ErrorFamily, validationBody } from './families';
import type { Answer } from './answer';

/** A controller's answer with any status; the body is always JSON. */
export function reply(statusCode: number, body: object, headers?: Record<string, string>): HttpResponse {
  return { [isHttpResponseSymbol]: true, statusCode, body, headers };
}

/** Ends the request from anywhere in a handler; http-core renders it. */
export function fail(statusCode: number, body: object, headers?: Record<string, string>): never {
  throw new ErrorHttpResponse(statusCode, body, undefined, undefined, headers);
}

export function failValidation(errors: FieldErrors, family: ErrorFamily = 'standard'): never {
  fail(422, validationBody(family, errors));
}

/** Validates a body or query against a DTO, or ends the request with the family's 422. */
export function parse<T>(
  dto: Ctor<T>,
  input: unknown,
  family: ErrorFamily = 'standard',
  options: ValidateOptions = {},
): T {
  const r = validateDto(dto, input, options);
  if (!r.ok) failValidation(r.errors, family);
  return r.value;
}

/** Path ids of the wrong shape are the family's 404, never a 422. */
export function pathId(raw: unknown, notFound: Answer): number {
  if (typeof raw === 'string' && /^[0-9]{1,15}$/.test(raw) && Number(raw) > 0) return Number(raw);
  fail(notFound.status, notFound.body);
}
