import { addFieldError, FieldErrors } from '../shared/field-errors';
import { checkTargetUrl, MAX_TARGET_URL_LENGTH, TargetUrlPolicy } from '../net/target-policy';
import { ToolParameter, ToolStaticField } from './tool';
import { PLACEHOLDER_PATTERN } from './placeholders';

/** Operation-specific messages of CONTRACT §5.2–§5.3. */
export const TOOL_MESSAGES = {
  name: 'Tool name must contain only letters, digits and underscores and start with a letter or underscore.',
  type: 'Only http tools can be created through the API.',
  placeholderInHost: 'Placeholders are not allowed in the scheme or host of the endpoint.',
  planLimit: (limit: number) => `You have reached your plan limit of ${limit} mid call tools. Please upgrade your plan to create more tools.`,
  notFound: 'Tool not found',
  automationPreview: 'Automation tools run inside voiceplane and cannot be rendered or tested.',
} as const;

/**
 * Write-time rules of a stored endpoint template (CONTRACT §5.2, §1.11), in the order a user fixes
 * them: placeholders only where values may vary, a URL at all, then the outbound policy.
 */
export function checkToolEndpoint(endpoint: string, policy: TargetUrlPolicy): string | null {
  const verdict = checkTargetUrl(endpoint, policy);
  if (!verdict.ok && verdict.reason === 'too_long') return `The endpoint may not be greater than ${MAX_TARGET_URL_LENGTH} characters.`;
  if (placeholderBeforePath(endpoint)) return TOOL_MESSAGES.placeholderInHost;
  if (!verdict.ok && verdict.reason === 'not_absolute_url') return 'The endpoint must be a valid URL.';
  if (!verdict.ok) return 'The endpoint must be a public http or https URL.';
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

/** Uniqueness inside one tool: static-field keys and parameter names (CONTRACT §5.2). */
export function checkToolItems(items: {
  readonly staticFields?: readonly ToolStaticField[];
  readonly schema?: readonly ToolParameter[];
}): FieldErrors {
  const errors: FieldErrors = {};
  duplicates(items.staticFields?.map((f) => f.key) ?? []).forEach((i) => {
    addFieldError(errors, `static_fields.${i}.key`, `The static_fields.${i}.key has already been taken.`);
  });
  duplicates(items.schema?.map((p) => p.name) ?? []).forEach((i) => {
    addFieldError(errors, `schema.${i}.name`, `The schema.${i}.name has already been taken.`);
  });
  return errors;
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
