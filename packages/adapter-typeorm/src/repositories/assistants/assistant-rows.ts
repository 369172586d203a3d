import { Assistant, AssistantConfig, OutboundAssistant, snakeCase } from '@voiceplane/domain';
import type { AssistantRecord } from '../../records';
import { num, numOrNull } from '../rows';

/** Configuration fields kept in columns of their snake_case names; tool and label ids live in join tables. */
export const CONFIG_FIELDS = [
  'name',
  'type',
  'mode',
  'timezone',
  'initialMessage',
  'systemPrompt',
  'knowledgebaseMode',
  'reengagementPrompt',
  'voiceMailMessage',
  'endpointType',
  'ambientSound',
  'webhookUrl',
  'conversationEndedWebhookUrl',
  'voiceId',
  'languageId',
  'llmModelId',
  'multimodalModelId',
  'chatLlmFallbackId',
  'knowledgebaseId',
  'folderId',
  'phoneNumberId',
  'synthesizerProviderId',
  'transcriberProviderId',
  'secondaryLanguageIds',
  'tools',
  'postCallSchema',
  'turnDetectionThreshold',
  'voiceStability',
  'voiceSimilarity',
  'speechSpeed',
  'llmTemperature',
  'maxDuration',
  'maxSilenceDuration',
  'maxInitialSilenceDuration',
  'ringingTime',
  'reengagementInterval',
  'endpointSensitivity',
  'interruptSensitivity',
  'minInterruptWords',
  'ambientSoundVolume',
  'conversationInactivityTimeout',
  'ttsEmotionEnabled',
  'allowInterruptions',
  'fillers',
  'record',
  'enableNoiseCancellation',
  'waitForCustomer',
  'endCallOnVoicemail',
  'isWebhookActive',
  'sendWebhookOnlyOnCompleted',
  'includeRecordingInWebhook',
  'postCallEvaluation',
  'conversationEndedRetrigger',
  'fillerConfig',
  'variables',
] as const satisfies ReadonlyArray<Exclude<keyof AssistantConfig, 'toolIds' | 'labelIds'>>;

export const CONFIG_COLUMNS = CONFIG_FIELDS.map(snakeCase);

const JSON_FIELDS = new Set<string>(['tools', 'postCallSchema', 'fillerConfig', 'variables']);
/** bigint columns arrive as strings from pg. */
const BIGINT_REFERENCES = new Set<string>(['knowledgebaseId', 'folderId', 'phoneNumberId']);

export function configParams(config: AssistantConfig): unknown[] {
  return CONFIG_FIELDS.map((f) => {
    const v = config[f];
    return JSON_FIELDS.has(f) && v !== null ? JSON.stringify(v) : v;
  });
}

/** The full record: the row plus its attachments, which the SELECT gathers as arrays. */
export const ASSISTANT_SELECT = `
  SELECT a.*,
    ARRAY(SELECT t.tool_id FROM assistant_tools t WHERE t.assistant_id = a.id ORDER BY t.position) AS tool_ids,
    ARRAY(SELECT l.label_id FROM assistant_labels l WHERE l.assistant_id = a.id ORDER BY l.position) AS label_ids
  FROM assistants a`;

/**
 * What ASSISTANT_SELECT reads: the whole record and its links (bigint arrays: strings), or a row
 * written with the links it was given (numbers).
 */
export type AssistantRow = AssistantRecord & {
  tool_ids: ReadonlyArray<string | number>;
  label_ids: ReadonlyArray<string | number>;
};

export function toAssistant(r: AssistantRow): Assistant {
  const config: Partial<Record<(typeof CONFIG_FIELDS)[number], unknown>> = {};
  for (const f of CONFIG_FIELDS) {
    // Every configuration field has the column of its snake_case name (the record declares them all).
    const value = r[snakeCase(f) as keyof AssistantRecord];
    config[f] = BIGINT_REFERENCES.has(f) ? numOrNull(value) : value;
  }
  return {
    ...(config as unknown as Omit<AssistantConfig, 'toolIds' | 'labelIds'>),
    id: num(r.id),
    uuid: r.uuid,
    userId: num(r.user_id),
    status: r.status as Assistant['status'],
    complianceBlocked: r.compliance_blocked,
    inboundWebhookUrl: r.inbound_webhook_url ?? null,
    toolIds: r.tool_ids.map(num),
    labelIds: r.label_ids.map(num),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

export const OUTBOUND_COLUMNS = `id, user_id, name, type, mode, status, voice_id, language_id, timezone, initial_message,
  system_prompt, variables, webhook_url, is_webhook_active, created_at, updated_at`;

/** OUTBOUND_COLUMNS of `assistants`. */
export type OutboundAssistantRow = Pick<
  AssistantRecord,
  | 'id'
  | 'user_id'
  | 'name'
  | 'type'
  | 'mode'
  | 'status'
  | 'voice_id'
  | 'language_id'
  | 'timezone'
  | 'initial_message'
  | 'system_prompt'
  | 'variables'
  | 'webhook_url'
  | 'is_webhook_active'
  | 'created_at'
  | 'updated_at'
>;

export function toOutboundAssistant(r: OutboundAssistantRow): OutboundAssistant {
  return {
    id: num(r.id),
    userId: num(r.user_id),
    name: r.name,
    type: r.type as OutboundAssistant['type'],
    mode: r.mode as OutboundAssistant['mode'],
    status: r.status as OutboundAssistant['status'],
    voiceId: r.voice_id,
    languageId: r.language_id,
    timezone: r.timezone,
    initialMessage: r.initial_message,
    systemPrompt: r.system_prompt,
    variables: r.variables,
    webhookUrl: r.webhook_url,
    isWebhookActive: r.is_webhook_active,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}
