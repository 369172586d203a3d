import type { Answer } from './answer';
import { fail } from './responses';

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

export function answerFor<R extends Coded>(table: AnswerTable<R>, refusal: R): Answer {
  const entry = table[codeOf(refusal)] as Answer | ((refusal: R) => Answer);
  return typeof entry === 'function' ? entry(refusal) : entry;
}

/** Ends the request with this answer. */
export function refuse({ status, body, headers }: Answer): never {
  fail(status, body, headers ? { ...headers } : undefined);
}

/** Ends the request with the table's answer to the refusal. */
export function answer<R extends Coded>(table: AnswerTable<R>, refusal: R): never {
  refuse(answerFor(table, refusal));
}
