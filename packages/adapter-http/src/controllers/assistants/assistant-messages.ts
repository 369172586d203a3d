import {
  AssistantProblem,
  FieldErrors,
  MAX_VARIABLE_VALUE_LENGTH,
  MAX_VARIABLES,
  normalizeVariableValues,
  Result,
  VariableProblem,
} from '@voiceplane/domain';
import { displayName } from '../../validation';
import { fieldErrors, FieldMessages } from '../../pipeline/field-messages';

/** Exact texts of the assistant field rules. */
export const ASSISTANT_MESSAGES = {
  speechSpeed: 'Speech speed must be between 0.7 and 1.2.',
  voiceIncompatible: 'The selected voice is not compatible with the chosen engine type.',
  interruptionsRequired: 'Interruptions cannot be disabled in multimodal or dualplex mode.',
  functionCallOnly: 'Only function_call mode is available for multimodal assistants.',
  webhookUrlRequired: 'The webhook url field is required when is webhook active is true.',
  inboundNumberTaken: 'The phone number is already assigned to another inbound assistant.',
  eventTypeInvalid: 'The selected event type is invalid.',
  assistantInvalid: 'The selected assistant is invalid.',
  duplicateToolName: (name: string) => `Two attached tools have the same name: ${name}.`,
  blockedUrl: (field: string) => `The ${displayName(field)} must be a public http or https URL.`,
  selectedInvalid: (field: string) => `The selected ${displayName(field)} is invalid.`,
} as const;

/** The words of every cross-field rule. */
export const ASSISTANT_FIELD_MESSAGES: FieldMessages<AssistantProblem> = {
  selected_invalid: (field) => ASSISTANT_MESSAGES.selectedInvalid(field),
  voice_incompatible: () => ASSISTANT_MESSAGES.voiceIncompatible,
  interruptions_required: () => ASSISTANT_MESSAGES.interruptionsRequired,
  function_call_only: () => ASSISTANT_MESSAGES.functionCallOnly,
  webhook_url_required: () => ASSISTANT_MESSAGES.webhookUrlRequired,
  blocked_url: (field) => ASSISTANT_MESSAGES.blockedUrl(field),
  inbound_number_taken: () => ASSISTANT_MESSAGES.inboundNumberTaken,
  event_type_invalid: () => ASSISTANT_MESSAGES.eventTypeInvalid,
  assistant_invalid: () => ASSISTANT_MESSAGES.assistantInvalid,
  taken: (field) => `The ${field} has already been taken.`,
  duplicate_tool_name: (_, { name }) => ASSISTANT_MESSAGES.duplicateToolName(name),
};

/** What activation needs and is missing. */
export const ACTIVATION_FIELD_MESSAGES: FieldMessages<'required'> = {
  required: (field) => `The ${displayName(field)} field is required.`,
};

const VARIABLE_MESSAGES: FieldMessages<VariableProblem> = {
  too_many: (field) => `The ${field} may not have more than ${MAX_VARIABLES} items.`,
  bad_name: (field) => `The ${field} format is invalid.`,
  not_text: (field) => `The ${field} must be a string.`,
  too_long: (field) => `The ${field} may not be greater than ${MAX_VARIABLE_VALUE_LENGTH} characters.`,
};

/** Call-time variables as stored, or their messages keyed `variables` / `variables.<key>`. */
export function normalizeVariables(
  input: Readonly<Record<string, unknown>>,
): Result<Record<string, string>, FieldErrors> {
  const normalized = normalizeVariableValues(input);
  return normalized.ok ? normalized : { ok: false, error: fieldErrors(normalized.error, VARIABLE_MESSAGES) };
}
