/**
 * The configuration of an assistant, in the product's camelCase names: the HTTP
 * adapter maps them to the wire's snake_case names (`webhookUrl` ↔ `webhook_url`, see
 * `snakeCase`), the store to its columns.
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
  readonly initialMessage: string;
  readonly systemPrompt: string;
  readonly knowledgebaseMode: KnowledgebaseMode | null;
  readonly reengagementPrompt: string | null;
  readonly voiceMailMessage: string | null;
  readonly endpointType: EndpointType;
  readonly ambientSound: AmbientSound;
  readonly webhookUrl: string | null;
  readonly conversationEndedWebhookUrl: string | null;
  /** Null only when the catalogue has no voice for the mode; activation then refuses. */
  readonly voiceId: number | null;
  readonly languageId: number;
  readonly llmModelId: number | null;
  readonly multimodalModelId: number | null;
  readonly chatLlmFallbackId: number | null;
  readonly knowledgebaseId: number | null;
  readonly folderId: number | null;
  readonly phoneNumberId: number | null;
  readonly synthesizerProviderId: number | null;
  readonly transcriberProviderId: number | null;
  readonly secondaryLanguageIds: readonly number[];
  readonly labelIds: readonly number[];
  readonly toolIds: readonly number[];
  readonly tools: readonly BuiltInTool[];
  readonly postCallSchema: readonly PostCallField[];
  readonly turnDetectionThreshold: number | null;
  readonly voiceStability: number;
  readonly voiceSimilarity: number;
  readonly speechSpeed: number;
  readonly llmTemperature: number;
  readonly maxDuration: number;
  readonly maxSilenceDuration: number;
  readonly maxInitialSilenceDuration: number | null;
  readonly ringingTime: number;
  readonly reengagementInterval: number;
  readonly endpointSensitivity: number;
  readonly interruptSensitivity: number;
  readonly minInterruptWords: number | null;
  readonly ambientSoundVolume: number;
  readonly conversationInactivityTimeout: number;
  readonly ttsEmotionEnabled: boolean;
  readonly allowInterruptions: boolean;
  readonly fillers: boolean;
  readonly record: boolean;
  readonly enableNoiseCancellation: boolean;
  readonly waitForCustomer: boolean;
  readonly endCallOnVoicemail: boolean;
  readonly isWebhookActive: boolean;
  readonly sendWebhookOnlyOnCompleted: boolean;
  readonly includeRecordingInWebhook: boolean;
  readonly postCallEvaluation: boolean;
  readonly conversationEndedRetrigger: boolean;
  readonly fillerConfig: FillerConfig | null;
  readonly variables: Readonly<Record<string, string>>;
}

/**
 * What a create or update request sent, already shape-checked: a key is present only when sent;
 * `null` means "clear". Id arrays keep the order and duplicates of the request so that item
 * errors can name the index the client sent.
 */
export type AssistantChanges = { -readonly [K in keyof AssistantConfig]?: AssistantConfig[K] };

/** Defaults that do not depend on the reference catalogue. */
export const ASSISTANT_DEFAULTS = {
  type: 'outbound',
  mode: 'pipeline',
  timezone: 'UTC',
  initialMessage: '',
  systemPrompt: '',
  reengagementPrompt: null,
  voiceMailMessage: null,
  endpointType: 'vad',
  ambientSound: 'off',
  webhookUrl: null,
  conversationEndedWebhookUrl: null,
  languageId: 1,
  chatLlmFallbackId: null,
  knowledgebaseId: null,
  folderId: null,
  phoneNumberId: null,
  synthesizerProviderId: null,
  transcriberProviderId: null,
  secondaryLanguageIds: [],
  labelIds: [],
  toolIds: [],
  tools: [],
  postCallSchema: [],
  turnDetectionThreshold: null,
  voiceStability: 0.7,
  voiceSimilarity: 0.5,
  speechSpeed: 1.0,
  llmTemperature: 0.1,
  maxDuration: 600,
  maxSilenceDuration: 40,
  maxInitialSilenceDuration: null,
  ringingTime: 30,
  reengagementInterval: 30,
  endpointSensitivity: 0.5,
  interruptSensitivity: 0.5,
  minInterruptWords: null,
  ambientSoundVolume: 0.5,
  conversationInactivityTimeout: 30,
  ttsEmotionEnabled: true,
  allowInterruptions: true,
  fillers: false,
  record: false,
  enableNoiseCancellation: true,
  waitForCustomer: false,
  endCallOnVoicemail: true,
  isWebhookActive: false,
  sendWebhookOnlyOnCompleted: true,
  includeRecordingInWebhook: true,
  postCallEvaluation: true,
  conversationEndedRetrigger: false,
  fillerConfig: null,
  variables: {},
} as const satisfies Omit<
  AssistantConfig,
  'name' | 'voiceId' | 'llmModelId' | 'multimodalModelId' | 'knowledgebaseMode'
>;

/** Speech speed bounds are fixed by the specification, with their own message. */
export const SPEECH_SPEED_MIN = 0.7;
export const SPEECH_SPEED_MAX = 1.2;

export const isRealtimeMode = (mode: AssistantMode): boolean => mode !== 'pipeline';
