import { AssistantConfig } from '@voiceplane/domain';
import { Assistant, OutboundAssistant } from '@voiceplane/application';
import { num, numOrNull } from '../rows';

/** Columns holding the configuration; tool and label ids live in join tables. */
export const CONFIG_COLUMNS = [
  'name', 'type', 'mode', 'timezone', 'initial_message', 'system_prompt', 'knowledgebase_mode', 'reengagement_prompt',
  'voice_mail_message', 'endpoint_type', 'ambient_sound', 'webhook_url', 'conversation_ended_webhook_url', 'voice_id',
  'language_id', 'llm_model_id', 'multimodal_model_id', 'chat_llm_fallback_id', 'knowledgebase_id', 'folder_id',
  'phone_number_id', 'synthesizer_provider_id', 'transcriber_provider_id', 'secondary_language_ids', 'tools',
  'post_call_schema', 'turn_detection_threshold', 'voice_stability', 'voice_similarity', 'speech_speed', 'llm_temperature',
  'max_duration', 'max_silence_duration', 'max_initial_silence_duration', 'ringing_time', 'reengagement_interval',
  'endpoint_sensitivity', 'interrupt_sensitivity', 'min_interrupt_words', 'ambient_sound_volume',
  'conversation_inactivity_timeout', 'tts_emotion_enabled', 'allow_interruptions', 'fillers', 'record',
  'enable_noise_cancellation', 'wait_for_customer', 'end_call_on_voicemail', 'is_webhook_active',
  'send_webhook_only_on_completed', 'include_recording_in_webhook', 'post_call_evaluation', 'conversation_ended_retrigger',
  'filler_config', 'variables',
] as const satisfies ReadonlyArray<Exclude<keyof AssistantConfig, 'tool_ids' | 'label_ids'>>;

const JSON_COLUMNS = new Set<string>(['tools', 'post_call_schema', 'filler_config', 'variables']);
/** bigint columns arrive as strings from pg. */
const BIGINT_REFERENCES = ['knowledgebase_id', 'folder_id', 'phone_number_id'] as const;

export function configParams(config: AssistantConfig): unknown[] {
  return CONFIG_COLUMNS.map((c) => {
    const v = config[c];
    return JSON_COLUMNS.has(c) && v !== null ? JSON.stringify(v) : v;
  });
}

/** The full record: the row plus its attachments, which the SELECT gathers as arrays. */
export const ASSISTANT_SELECT = `
  SELECT a.*,
    ARRAY(SELECT t.tool_id FROM assistant_tools t WHERE t.assistant_id = a.id ORDER BY t.position) AS tool_ids,
    ARRAY(SELECT l.label_id FROM assistant_labels l WHERE l.assistant_id = a.id ORDER BY l.position) AS label_ids
  FROM assistants a`;

export function toAssistant(r: Record<string, unknown>): Assistant {
  const out: Record<string, unknown> = { ...r };
  delete out.compliance_reason;
  delete out.total;
  out.id = num(r.id);
  out.user_id = num(r.user_id);
  for (const c of BIGINT_REFERENCES) out[c] = numOrNull(r[c]);
  out.tool_ids = (r.tool_ids as unknown[]).map(num);
  out.label_ids = (r.label_ids as unknown[]).map(num);
  out.created_at = new Date(r.created_at as string);
  out.updated_at = new Date(r.updated_at as string);
  return out as unknown as Assistant;
}

export const OUTBOUND_COLUMNS = `id, user_id, name, type, mode, status, voice_id, language_id, timezone, initial_message,
  system_prompt, variables, webhook_url, is_webhook_active, created_at, updated_at`;

export function toOutboundAssistant(r: Record<string, unknown>): OutboundAssistant {
  return {
    id: num(r.id), user_id: num(r.user_id), name: r.name as string, type: r.type as OutboundAssistant['type'],
    mode: r.mode as OutboundAssistant['mode'], status: r.status as OutboundAssistant['status'],
    voice_id: r.voice_id as number | null, language_id: r.language_id as number, timezone: r.timezone as string,
    initial_message: r.initial_message as string, system_prompt: r.system_prompt as string,
    variables: r.variables as Record<string, string>, webhook_url: r.webhook_url as string | null,
    is_webhook_active: r.is_webhook_active as boolean,
    created_at: new Date(r.created_at as string), updated_at: new Date(r.updated_at as string),
  };
}
