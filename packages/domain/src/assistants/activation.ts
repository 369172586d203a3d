import { err, ok, Result } from '../common/result';
import { addFieldProblem, FieldProblems, hasFieldProblems } from '../common/field-problems';
import { AssistantConfig, AssistantStatus, isRealtimeMode } from './assistant';

export type ActivationRefusal =
  | { readonly code: 'compliance_blocked' }
  | { readonly code: 'incomplete'; readonly problems: FieldProblems<'required'> };

/**
 * What an assistant needs before it may take inbound calls and answer chats.
 * A compliance block wins over missing settings: fixing them would not help.
 */
export function activate(
  assistant: AssistantConfig & { readonly complianceBlocked: boolean },
): Result<AssistantStatus, ActivationRefusal> {
  if (assistant.complianceBlocked) return err({ code: 'compliance_blocked' });
  const problems: FieldProblems<'required'> = {};
  const required = (field: string) => addFieldProblem(problems, field, 'required');
  if (assistant.voiceId === null) required('voice_id');
  if (assistant.systemPrompt.trim() === '') required('system_prompt');
  if (isRealtimeMode(assistant.mode) ? assistant.multimodalModelId === null : assistant.llmModelId === null) {
    required(isRealtimeMode(assistant.mode) ? 'multimodal_model_id' : 'llm_model_id');
  }
  if (assistant.type === 'inbound' && assistant.phoneNumberId === null) required('phone_number_id');
  return hasFieldProblems(problems) ? err({ code: 'incomplete', problems }) : ok('active');
}
