/**
 * Every field of an assistant, grouped as the editor shows them. `kind` says how it is edited;
 * lists and documents are edited as JSON (the API's own validation messages name their items).
 */
export type FieldKind = 'text' | 'long' | 'number' | 'bool' | 'json' | 'id' | 'choice';

export interface FieldSpec {
  readonly name: string;
  readonly kind: FieldKind;
  readonly choices?: readonly string[];
}

const f = (name: string, kind: FieldKind, choices?: readonly string[]): FieldSpec => ({ name, kind, choices });

export const FIELD_GROUPS: readonly { readonly title: string; readonly fields: readonly FieldSpec[] }[] = [
  {
    title: 'Basics',
    fields: [
      f('name', 'text'),
      f('type', 'choice', ['outbound', 'inbound']),
      f('mode', 'choice', ['pipeline', 'multimodal', 'dualplex']),
      f('timezone', 'text'),
      f('folder_id', 'id'),
      f('label_ids', 'json'),
      f('phone_number_id', 'id'),
    ],
  },
  {
    title: 'Prompt and variables',
    fields: [
      f('initial_message', 'long'),
      f('system_prompt', 'long'),
      f('variables', 'json'),
      f('voice_mail_message', 'long'),
      f('reengagement_prompt', 'long'),
    ],
  },
  {
    title: 'Voice and language',
    fields: [
      f('voice_id', 'id'),
      f('language_id', 'id'),
      f('secondary_language_ids', 'json'),
      f('llm_model_id', 'id'),
      f('multimodal_model_id', 'id'),
      f('chat_llm_fallback_id', 'id'),
      f('synthesizer_provider_id', 'id'),
      f('transcriber_provider_id', 'id'),
      f('voice_stability', 'number'),
      f('voice_similarity', 'number'),
      f('speech_speed', 'number'),
      f('llm_temperature', 'number'),
      f('tts_emotion_enabled', 'bool'),
      f('ambient_sound', 'text'),
      f('ambient_sound_volume', 'number'),
    ],
  },
  {
    title: 'Turn taking',
    fields: [
      f('endpoint_type', 'choice', ['vad', 'ai']),
      f('endpoint_sensitivity', 'number'),
      f('turn_detection_threshold', 'number'),
      f('allow_interruptions', 'bool'),
      f('interrupt_sensitivity', 'number'),
      f('min_interrupt_words', 'number'),
      f('fillers', 'bool'),
      f('filler_config', 'json'),
      f('wait_for_customer', 'bool'),
      f('enable_noise_cancellation', 'bool'),
    ],
  },
  {
    title: 'Silence and time limits',
    fields: [
      f('max_duration', 'number'),
      f('max_silence_duration', 'number'),
      f('max_initial_silence_duration', 'number'),
      f('ringing_time', 'number'),
      f('reengagement_interval', 'number'),
      f('conversation_inactivity_timeout', 'number'),
      f('end_call_on_voicemail', 'bool'),
      f('record', 'bool'),
    ],
  },
  { title: 'Tools', fields: [f('tool_ids', 'json'), f('tools', 'json')] },
  {
    title: 'Knowledge base',
    fields: [f('knowledgebase_id', 'id'), f('knowledgebase_mode', 'choice', ['prompt', 'function_call'])],
  },
  { title: 'Post-call schema', fields: [f('post_call_evaluation', 'bool'), f('post_call_schema', 'json')] },
  {
    title: 'Webhooks',
    fields: [
      f('webhook_url', 'text'),
      f('is_webhook_active', 'bool'),
      f('send_webhook_only_on_completed', 'bool'),
      f('include_recording_in_webhook', 'bool'),
      f('conversation_ended_webhook_url', 'text'),
      f('conversation_ended_retrigger', 'bool'),
    ],
  },
];

export const label = (name: string): string =>
  name
    .replace(/_ids?$/, (m) => (m === '_ids' ? ' ids' : ' id'))
    .replace(/_/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());

/** A stored value as the form edits it. */
export function toForm(kind: FieldKind, value: unknown): string | boolean {
  if (kind === 'bool') return value === true;
  if (kind === 'json') return JSON.stringify(value ?? (kind === 'json' ? null : ''), null, 2);
  return value === null || value === undefined ? '' : String(value);
}

/** The form's value as the API takes it; JSON that does not parse is sent as typed, so the API names the field. */
export function fromForm(kind: FieldKind, value: string | boolean): unknown {
  if (kind === 'bool') return value;
  const text = String(value);
  if (kind === 'json') {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (text.trim() === '') return null;
  if (kind === 'number' || kind === 'id') return Number.isFinite(Number(text)) ? Number(text) : text;
  return text;
}
