import { FieldErrors, FieldProblems } from '@voiceplane/domain';
import { Coded, codeOf, CodeOf, WithCode } from './answers';

/** The literal text of every field problem a feature's rules can find, given the field it is on. */
export type FieldMessages<P extends Coded> = {
  readonly [C in CodeOf<P>]: (field: string, problem: WithCode<P, C>) => string;
};

export function fieldMessage<P extends Coded>(messages: FieldMessages<P>, field: string, problem: P): string {
  return (messages[codeOf(problem)] as (field: string, problem: P) => string)(field, problem);
}

/** The 422 `errors` map of the problems, in the order the rules found them. */
export function fieldErrors<P extends Coded>(problems: FieldProblems<P>, messages: FieldMessages<P>): FieldErrors {
  return Object.fromEntries(
    Object.entries(problems).map(([field, list]) => [field, list.map((p) => fieldMessage(messages, field, p))]),
  );
}
