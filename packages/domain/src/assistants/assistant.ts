/**
 * The configuration of an assistant (CONTRACT §3.1). Field names are the wire names: the record
 * travels unchanged between the API, the rules and the store, like `Plan`.
 */
import { BuiltInTool } from './built-in-tools';
import { FillerConfig } from './filler-config';
import { PostCallField } from './post-call-schema';

export const ASSISTANT_TYPES = ['outbound', 'inbound'] as const;
export const ASSISTANT_MODES = ['pipeline', 'multimodal', 'dualplex'] as const;
export const ASSISTANT_STATUSES = ['active', 'inactive'] as const;
export const KNOWLEDGEBASE_MODES = ['function_call', 'prompt'] as const;
export const ENDPOINT_TYPES = ['vad', 'ai'] as const;
export const AMBIENT_SOUNDS = ['off', 'office', 'city', 'forest', 'crowded_room', 'cafe', 'nature'] as const;

export type AssistantType = (typeof ASSISTANT_TYPES)[number];
export type AssistantMode = (typeof ASSISTANT_MODES)[number];
export type AssistantStatus = (typeof ASSISTANT_STATUSES)[number];
export type KnowledgebaseMode = (typeof KNOWLEDGEBASE_MODES)[number];
export type EndpointType = (typeof ENDPOINT_TYPES)[number];
export type AmbientSound = (typeof AMBIENT_SOUNDS)[number];

export interface AssistantConfig {
  readonly name: string;
  readonly type: AssistantType;
  readonly mode: AssistantMode;
  readonly timezone: string;
  readonly initial_message: string;
  readonly system_prompt: string;
  readonly knowledgebase_mode: KnowledgebaseMode | null;
  readonly reengagement_prompt: string | null;
  readonly voice_mail_message: string | null;
  readonly endpoint_type: EndpointType;
  readonly ambient_sound: AmbientSound;
  readonly webhook_url: string | null;
  readonly conversation_ended_webhook_url: string | null;
  /** Null only when the catalogue has no voice for the mode; activation then refuses. */
  readonly voice_id: number | null;
  readonly language_id: number;
  readonly llm_model_id: number | null;
  readonly multimodal_model_id: number | null;
  readonly chat_llm_fallback_id: number | null;
  readonly knowledgebase_id: number | null;
  readonly folder_id: number | null;
  readonly phone_number_id: number | null;
  readonly synthesizer_provider_id: number | null;
  readonly transcriber_provider_id: number | null;
  readonly secondary_language_ids: readonly number[];
  readonly label_ids: readonly number[];
  readonly tool_ids: readonly number[];
  readonly tools: readonly BuiltInTool[];
  readonly post_call_schema: readonly PostCallField[];
  readonly turn_detection_threshold: number | null;
  readonly voice_stability: number;
  readonly voice_similarity: number;
  readonly speech_speed: number;
  readonly llm_temperature: number;
  readonly max_duration: number;
  readonly max_silence_duration: number;
  readonly max_initial_silence_duration: number | null;
  readonly ringing_time: number;
  readonly reengagement_interval: number;
  readonly endpoint_sensitivity: number;
  readonly interrupt_sensitivity: number;
  readonly min_interrupt_words: number | null;
  readonly ambient_sound_volume: number;
  readonly conversation_inactivity_timeout: number;
  readonly tts_emotion_enabled: boolean;
  readonly allow_interruptions: boolean;
  readonly fillers: boolean;
  readonly record: boolean;
  readonly enable_noise_cancellation: boolean;
  readonly wait_for_customer: boolean;
  readonly end_call_on_voicemail: boolean;
  readonly is_webhook_active: boolean;
  readonly send_webhook_only_on_completed: boolean;
  readonly include_recording_in_webhook: boolean;
  readonly post_call_evaluation: boolean;
  readonly conversation_ended_retrigger: boolean;
  readonly filler_config: FillerConfig | null;
  readonly variables: Readonly<Record<string, string>>;
}

/**
 * What a create or update request sent, already shape-checked: a key is present only when sent;
 * `null` means "clear". Id arrays keep the order and duplicates of the request so that item
 * errors can name the index the client sent.
 */
export type AssistantChanges = { -readonly [K in keyof AssistantConfig]?: AssistantConfig[K] };

/** Defaults of CONTRACT §3.1 that do not depend on the reference catalogue. */
export const ASSISTANT_DEFAULTS = {
  type: 'outbound',
  mode: 'pipeline',
  timezone: 'UTC',
  initial_message: '',
  system_prompt: '',
  reengagement_prompt: null,
  voice_mail_message: null,
  endpoint_type: 'vad',
  ambient_sound: 'off',
  webhook_url: null,
  conversation_ended_webhook_url: null,
  language_id: 1,
  chat_llm_fallback_id: null,
  knowledgebase_id: null,
  folder_id: null,
  phone_number_id: null,
  synthesizer_provider_id: null,
  transcriber_provider_id: null,
  secondary_language_ids: [],
  label_ids: [],
  tool_ids: [],
  tools: [],
  post_call_schema: [],
  turn_detection_threshold: null,
  voice_stability: 0.7,
  voice_similarity: 0.5,
  speech_speed: 1.0,
  llm_temperature: 0.1,
  max_duration: 600,
  max_silence_duration: 40,
  max_initial_silence_duration: null,
  ringing_time: 30,
  reengagement_interval: 30,
  endpoint_sensitivity: 0.5,
  interrupt_sensitivity: 0.5,
  min_interrupt_words: null,
  ambient_sound_volume: 0.5,
  conversation_inactivity_timeout: 30,
  tts_emotion_enabled: true,
  allow_interruptions: true,
  fillers: false,
  record: false,
  enable_noise_cancellation: true,
  wait_for_customer: false,
  end_call_on_voicemail: true,
  is_webhook_active: false,
  send_webhook_only_on_completed: true,
  include_recording_in_webhook: true,
  post_call_evaluation: true,
  conversation_ended_retrigger: false,
  filler_config: null,
  variables: {},
} as const satisfies Omit<AssistantConfig, 'name' | 'voice_id' | 'llm_model_id' | 'multimodal_model_id' | 'knowledgebase_mode'>;

/** Speech speed bounds are fixed by the specification, with their own message (§3.2). */
export const SPEECH_SPEED_MIN = 0.7;
export const SPEECH_SPEED_MAX = 1.2;

export const isRealtimeMode = (mode: AssistantMode): boolean => mode !== 'pipeline';
