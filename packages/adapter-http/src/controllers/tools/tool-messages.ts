import {
  FieldErrors,
  MAX_TARGET_URL_LENGTH,
  TargetUrlPolicy,
  ToolEndpointProblem,
  toolEndpointProblem,
  toolItemProblems,
  ToolParameter,
  ToolStaticField,
} from '@voiceplane/domain';
import { fieldErrors } from '../../pipeline/field-messages';

/** Operation-specific messages. */
export const TOOL_MESSAGES = {
  name: 'Tool name must contain only letters, digits and underscores and start with a letter or underscore.',
  type: 'Only http tools can be created through the API.',
  placeholderInHost: 'Placeholders are not allowed in the scheme or host of the endpoint.',
  planLimit: (limit: number) =>
    `You have reached your plan limit of ${limit} mid call tools. Please upgrade your plan to create more tools.`,
  notFound: 'Tool not found',
  automationPreview: 'Automation tools run inside voiceplane and cannot be rendered or tested.',
} as const;

const ENDPOINT_MESSAGES: Readonly<Record<ToolEndpointProblem, string>> = {
  too_long: `The endpoint may not be greater than ${MAX_TARGET_URL_LENGTH} characters.`,
  placeholder_in_host: TOOL_MESSAGES.placeholderInHost,
  not_a_url: 'The endpoint must be a valid URL.',
  not_public: 'The endpoint must be a public http or https URL.',
};

/** The `endpoint` message of a stored endpoint template, or null when it may be stored. */
export function checkToolEndpoint(endpoint: string, policy: TargetUrlPolicy): string | null {
  const problem = toolEndpointProblem(endpoint, policy);
  return problem === null ? null : ENDPOINT_MESSAGES[problem];
}

/** Messages of repeated static-field keys and parameter names. */
export function checkToolItems(items: {
  readonly staticFields?: readonly ToolStaticField[];
  readonly schema?: readonly ToolParameter[];
}): FieldErrors {
  return fieldErrors(toolItemProblems(items), { taken: (field) => `The ${field} has already been taken.` });
}
