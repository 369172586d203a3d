import { addFieldProblem, FieldProblems } from '../common/field-problems';
import { checkTargetUrl, TargetUrlPolicy } from '../net/target-policy';
import { ToolParameter, ToolStaticField } from './tool';
import { PLACEHOLDER_PATTERN } from './placeholders';

/** Why a stored endpoint template is refused; the transport words it. */
export type ToolEndpointProblem = 'too_long' | 'placeholder_in_host' | 'not_a_url' | 'not_public';

/**
 * Write-time rules of a stored endpoint template, in the order a user fixes
 * them: placeholders only where values may vary, a URL at all, then the outbound policy.
 */
export function toolEndpointProblem(endpoint: string, policy: TargetUrlPolicy): ToolEndpointProblem | null {
  const verdict = checkTargetUrl(endpoint, policy);
  if (!verdict.ok && verdict.reason === 'too_long') return 'too_long';
  if (placeholderBeforePath(endpoint)) return 'placeholder_in_host';
  if (!verdict.ok && verdict.reason === 'not_absolute_url') return 'not_a_url';
  if (!verdict.ok) return 'not_public';
  return null;
}

/**
 * True when a placeholder sits in the scheme or authority. Placeholders are masked first, so that
 * a `/` or `?` inside one does not move the end of the authority.
 */
function placeholderBeforePath(endpoint: string): boolean {
  const spans: Array<[number, number]> = [];
  const masked = endpoint.replace(PLACEHOLDER_PATTERN, (match: string, offset: number) => {
    spans.push([offset, offset + match.length]);
    return 'x'.repeat(match.length);
  });
  if (spans.length === 0) return false;
  const schemeEnd = masked.indexOf(':');
  const authorityStart = masked.startsWith('//', schemeEnd + 1) ? schemeEnd + 3 : schemeEnd + 1;
  const rest = masked.slice(authorityStart).search(/[/?#]/);
  const pathStart = rest === -1 ? masked.length : authorityStart + rest;
  return spans.some(([start]) => start < pathStart);
}

/** Uniqueness inside one tool: static-field keys and parameter names. */
export function toolItemProblems(items: {
  readonly staticFields?: readonly ToolStaticField[];
  readonly schema?: readonly ToolParameter[];
}): FieldProblems<'taken'> {
  const problems: FieldProblems<'taken'> = {};
  duplicates(items.staticFields?.map((f) => f.key) ?? []).forEach((i) =>
    addFieldProblem(problems, `static_fields.${i}.key`, 'taken'),
  );
  duplicates(items.schema?.map((p) => p.name) ?? []).forEach((i) =>
    addFieldProblem(problems, `schema.${i}.name`, 'taken'),
  );
  return problems;
}

/** Indexes of values already seen earlier in the list. */
function duplicates(values: readonly string[]): number[] {
  const seen = new Set<string>();
  const repeated: number[] = [];
  values.forEach((value, i) => {
    if (seen.has(value)) repeated.push(i);
    seen.add(value);
  });
  return repeated;
}

/** Refusals of tool management; the transport answers each. */
export type ToolRefusal = 'tool_not_found' | { readonly code: 'plan_limit'; readonly limit: number };
