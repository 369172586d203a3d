import { ErrorHttpResponse } from '@inversifyjs/http-core';
import { FieldErrors } from '@voiceplane/domain';
import type { Answer } from './answer';
import { ErrorFamily, validationBody } from './families';

/** A refusal or field problem: a bare code, or a code with what its answer needs. */
export type Coded = string | { readonly code: string };

export type CodeOf<R extends Coded> = R extends string
  ? R
  : R extends { readonly code: infer C extends string }
    ? C
    : never;

/** The member of `R` that carries code `C`. */
export type WithCode<R extends Coded, C extends string> = R extends string
  ? R extends C
    ? R
    : never
  : Extract<R, { readonly code: C }>;

export type { Answer } from './answer';

/**
 * One answer per code a feature can refuse with: a new code does not compile until it has its
 * status and literal body here.
 */
export type AnswerTable<R extends Coded> = {
  readonly [C in CodeOf<R>]: Answer | ((refusal: WithCode<R, C>) => Answer);
};

export function codeOf<R extends Coded>(refusal: R): CodeOf<R> {
  return (typeof refusal === 'string' ? refusal : refusal.code) as CodeOf<R>;
}

/** The table's answer to a refusal, for a renderer or a `pathId`: it ends nothing; `reply` and `refuse` do. */
export function answerFor<R extends Coded>(table: AnswerTable<R>, refusal: R): Answer {
  const entry = table[codeOf(refusal)] as Answer | ((refusal: R) => Answer);
  return typeof entry === 'function' ? entry(refusal) : entry;
}

/** The family's 422 for these field problems. */
export function validationAnswer(errors: FieldErrors, family: ErrorFamily = 'standard'): Answer {
  return { status: 422, body: validationBody(family, errors) };
}

/**
 * The one way a controller refuses, from anywhere in a handler: ends the request with this answer,
 * or with the table's answer to the refusal (http-core renders it).
 */
export function refuse(answer: Answer): never;
export function refuse<R extends Coded>(table: AnswerTable<R>, refusal: R): never;
export function refuse<R extends Coded>(first: Answer | AnswerTable<R>, refusal?: R): never {
  const { status, body, headers } =
    refusal === undefined ? (first as Answer) : answerFor(first as AnswerTable<R>, refusal);
  throw new ErrorHttpResponse(status, body, undefined, undefined, headers ? { ...headers } : undefined);
}
