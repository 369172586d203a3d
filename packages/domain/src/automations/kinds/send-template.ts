import { isJsonObject, JsonObject } from '../json';
import { requireId, requireText, StepKindRules } from './step-kind';

export interface SendTemplateConfig {
  readonly sender_id: number;
  readonly template_id: number;
  readonly to: string;
  readonly variables?: JsonObject;
}

/** An approved chat-app template to a phone number; a sender or template gone is a missing record. */
export const SEND_TEMPLATE_STEP: StepKindRules<SendTemplateConfig> = {
  checkConfig: (c, bad) => {
    requireId(c, 'sender_id', bad);
    requireId(c, 'template_id', bad);
    requireText(c, 'to', bad);
    if ('variables' in c && !isJsonObject(c.variables)) bad('variables');
  },
  classifyFailure: (reason) => (reason === 'record_gone' ? 'missing_record' : null),
};
