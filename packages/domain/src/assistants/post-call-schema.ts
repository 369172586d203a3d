import { addFieldProblem, FieldProblems } from '../common/field-problems';

/** What the post-call extraction collects. `type` is stored exactly as sent. */
export interface PostCallField {
  readonly name: string;
  readonly type: PostCallFieldType;
  readonly description: string | null;
}

export const POST_CALL_FIELD_TYPES = ['string', 'number', 'bool', 'boolean', 'int', 'integer', 'float'] as const;
export type PostCallFieldType = (typeof POST_CALL_FIELD_TYPES)[number];
export const POST_CALL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const POST_CALL_NAME_MAX = 64;
export const POST_CALL_DESCRIPTION_MAX = 255;
export const MAX_POST_CALL_FIELDS = 50;

export type PostCallSchemaProblem = 'taken';

/**
 * Two fields with one name would make the extracted result ambiguous; the contract is silent,
 * so the second occurrence is refused (case-sensitive, like the names in the result object).
 */
export function postCallSchemaProblems(fields: readonly PostCallField[]): FieldProblems<PostCallSchemaProblem> {
  const problems: FieldProblems<PostCallSchemaProblem> = {};
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    if (seen.has(f.name)) addFieldProblem(problems, `post_call_schema.${i}.name`, 'taken');
    seen.add(f.name);
  });
  return problems;
}
