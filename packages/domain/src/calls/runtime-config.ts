import { AssistantConfig } from '../assistants/assistant';
import { snakeCase, SnakeCased } from '../common/case';
import { ToolParameter, ToolParameterType } from '../tools/tool';
import { CallChannel, CallDirection, CallerLine } from './call';
import { RuntimeSpeech } from './runtime-speech';

/** Assistant settings that concern voiceplane's webhooks, not the conversation: kept from the runtime. */
export const WEBHOOK_FIELDS = [
  'webhookUrl',
  'conversationEndedWebhookUrl',
  'isWebhookActive',
  'sendWebhookOnlyOnCompleted',
  'includeRecordingInWebhook',
  'conversationEndedRetrigger',
] as const satisfies readonly (keyof AssistantConfig)[];

type WebhookField = (typeof WEBHOOK_FIELDS)[number];

/** Every other assistant field, in record order; the compiler demands an entry for each new field. */
const RUNTIME_FIELDS: Readonly<Record<Exclude<keyof AssistantConfig, WebhookField>, true>> = {
  name: true,
  type: true,
  mode: true,
  timezone: true,
  initialMessage: true,
  systemPrompt: true,
  knowledgebaseMode: true,
  reengagementPrompt: true,
  voiceMailMessage: true,
  endpointType: true,
  ambientSound: true,
  voiceId: true,
  languageId: true,
  llmModelId: true,
  multimodalModelId: true,
  chatLlmFallbackId: true,
  knowledgebaseId: true,
  folderId: true,
  phoneNumberId: true,
  synthesizerProviderId: true,
  transcriberProviderId: true,
  secondaryLanguageIds: true,
  labelIds: true,
  toolIds: true,
  tools: true,
  postCallSchema: true,
  turnDetectionThreshold: true,
  voiceStability: true,
  voiceSimilarity: true,
  speechSpeed: true,
  llmTemperature: true,
  maxDuration: true,
  maxSilenceDuration: true,
  maxInitialSilenceDuration: true,
  ringingTime: true,
  reengagementInterval: true,
  endpointSensitivity: true,
  interruptSensitivity: true,
  minInterruptWords: true,
  ambientSoundVolume: true,
  conversationInactivityTimeout: true,
  ttsEmotionEnabled: true,
  allowInterruptions: true,
  fillers: true,
  record: true,
  enableNoiseCancellation: true,
  waitForCustomer: true,
  endCallOnVoicemail: true,
  postCallEvaluation: true,
  fillerConfig: true,
  variables: true,
};

/**
 * The assistant as the runtime reads it: its settings under their wire names, plus the ISO 639-1
 * codes of its languages. `secondary_languages` is absent from configs stored before it existed.
 */
export type RuntimeAssistant = {
  readonly id: number;
  readonly language: string | null;
  readonly secondary_languages?: readonly string[];
} & SnakeCased<Omit<AssistantConfig, WebhookField>>;

export interface RuntimeTool {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly parameters: {
    readonly type: 'object';
    readonly properties: Readonly<Record<string, { readonly type: string; readonly description: string }>>;
    readonly required: readonly string[];
  };
}

/** What the voice runtime needs to run a call, in its wire shape. */
export interface RuntimeConfig {
  readonly direction: CallDirection;
  readonly channel: CallChannel;
  readonly customer_phone: string;
  readonly assistant_phone: string | null;
  readonly sip: {
    readonly outbound_trunk_id: string;
    readonly calling_format: string;
    readonly outbound_proxy: boolean;
  } | null;
  readonly assistant: RuntimeAssistant;
  readonly variables: Readonly<Record<string, string>>;
  readonly tools: readonly RuntimeTool[];
  readonly builtin_tools: AssistantConfig['tools'];
  /** The catalogue entries the assistant names, resolved for the voice agent; absent from configs stored before it existed. */
  readonly speech?: RuntimeSpeech;
  /**
   * The assistants this call's `assistant_transfer` tools can hand it to (chains included), as
   * their configs were when the call started; absent when there are none.
   */
  readonly transfer_assistants?: readonly TransferAssistant[];
}

/** Another assistant taking over the same call: its settings, variables, tools and voice. */
export type TransferAssistant = Pick<RuntimeConfig, 'assistant' | 'variables' | 'tools' | 'builtin_tools'> & {
  readonly speech: RuntimeSpeech;
};

export interface RuntimeConfigInput {
  readonly direction: CallDirection;
  readonly channel: CallChannel;
  readonly customerPhone: string;
  readonly line: CallerLine | null;
  readonly assistantId: number;
  readonly assistant: AssistantConfig;
  /** ISO 639-1 code of the assistant's `language_id`. */
  readonly languageCode: string | null;
  /** ISO 639-1 codes of its `secondary_language_ids`, in their order (unknown ids left out). */
  readonly secondaryLanguageCodes: readonly string[];
  /** The call's input variables; they win over the assistant's. */
  readonly variables: Readonly<Record<string, string>>;
  /** The assistant's attached tools, in attachment order. */
  readonly tools: ReadonlyArray<{
    readonly id: number;
    readonly name: string;
    readonly description: string;
    readonly schema: readonly ToolParameter[];
  }>;
}

/** Schema `number` is an integer and `float` any number. */
const JSON_TYPES: Readonly<Record<ToolParameterType, string>> = {
  string: 'string',
  number: 'integer',
  float: 'number',
  boolean: 'boolean',
};

export function toolParameters(schema: readonly ToolParameter[]): RuntimeTool['parameters'] {
  const properties: Record<string, { type: string; description: string }> = {};
  for (const p of schema) properties[p.name] = { type: JSON_TYPES[p.type], description: p.description };
  return { type: 'object', properties, required: schema.filter((p) => p.required).map((p) => p.name) };
}

/**
 * Built once, when the call starts, and kept with the call: calls in progress keep the
 * configuration they started with.
 */
export function buildRuntimeConfig(input: RuntimeConfigInput): RuntimeConfig {
  const assistant: Record<string, unknown> = {
    id: input.assistantId,
    language: input.languageCode,
    secondary_languages: input.secondaryLanguageCodes,
  };
  for (const key of Object.keys(RUNTIME_FIELDS) as (keyof typeof RUNTIME_FIELDS)[])
    assistant[snakeCase(key)] = input.assistant[key];
  const sip = input.line?.sip ?? null;
  return {
    direction: input.direction,
    channel: input.channel,
    customer_phone: input.customerPhone,
    assistant_phone: input.line?.phoneNumber ?? null,
    sip: sip
      ? { outbound_trunk_id: sip.outboundTrunkId, calling_format: sip.callingFormat, outbound_proxy: sip.outboundProxy }
      : null,
    assistant: assistant as RuntimeAssistant,
    variables: { ...input.assistant.variables, ...input.variables },
    tools: input.tools.map((t) => ({
      id: t.id,
      name: t.name,
      description: t.description,
      parameters: toolParameters(t.schema),
    })),
    builtin_tools: input.assistant.tools,
  };
}
