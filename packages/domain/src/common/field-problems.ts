/**
 * Rules a request broke, keyed by wire field name (`allowed_inbound_ips`, `tools.0.event_type_id`).
 * Each problem is a code (with what its wording needs); the transport words it.
 */
export type FieldProblems<P> = Record<string, P[]>;

export function addFieldProblem<P>(problems: FieldProblems<P>, field: string, problem: P): void {
  (problems[field] ??= []).push(problem);
}

export function hasFieldProblems(problems: FieldProblems<unknown>): boolean {
  return Object.keys(problems).length > 0;
}
