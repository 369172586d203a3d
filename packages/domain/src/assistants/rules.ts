import { addFieldError, FieldErrors } from '../shared/field-errors';
import { snakeCase } from '../shared/case';
import { checkTargetUrl, TargetUrlPolicy } from '../net/target-policy';
import { AssistantChanges, AssistantConfig, isRealtimeMode } from './assistant';
import { ModelKind, ProviderKind, ReferenceCatalog, voiceSupportsMode } from './catalog';
import { assistantReferences, eventTypeReferences } from './built-in-tools';
import { postCallSchemaErrors } from './post-call-schema';

/** Exact texts of CONTRACT §3.2. */
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
  blockedUrl: (field: string) => `The ${label(field)} must be a public http or https URL.`,
  selectedInvalid: (field: string) => `The selected ${label(field)} is invalid.`,
} as const;

/** Top-level keys read as words, dotted item keys stay literal (CONTRACT §1.6, D1). */
function label(field: string): string {
  return field.includes('.') ? field : field.replace(/_/g, ' ');
}

/** Account records a request points at; the store answers which of them the user owns. */
export interface ReferenceQuery {
  readonly folderIds: readonly number[];
  readonly knowledgeBaseIds: readonly number[];
  readonly phoneNumberIds: readonly number[];
  readonly labelIds: readonly number[];
  readonly toolIds: readonly number[];
  readonly eventTypeIds: readonly number[];
  readonly assistantIds: readonly number[];
  /** Ask whether another inbound assistant answers on this number. */
  readonly inboundNumber: { readonly phoneNumberId: number; readonly exceptAssistantId: number | null } | null;
}

export interface OwnedReferences {
  readonly folderIds: ReadonlySet<number>;
  readonly knowledgeBaseIds: ReadonlySet<number>;
  readonly phoneNumberIds: ReadonlySet<number>;
  readonly labelIds: ReadonlySet<number>;
  /** Owned tools by id, with their names (two attached tools may not share one). */
  readonly toolNames: ReadonlyMap<number, string>;
  readonly eventTypeIds: ReadonlySet<number>;
  readonly assistantIds: ReadonlySet<number>;
  readonly inboundNumberTaken: boolean;
}

const idOf = (v: number | null | undefined): number[] => (v === null || v === undefined ? [] : [v]);

/** Only references the request sent are looked up; stored ones were checked when they were sent. */
export function referencesToCheck(changes: AssistantChanges, next: AssistantConfig, selfId: number | null): ReferenceQuery {
  const tools = changes.tools ?? [];
  return {
    folderIds: idOf(changes.folderId),
    knowledgeBaseIds: idOf(changes.knowledgebaseId),
    phoneNumberIds: idOf(changes.phoneNumberId),
    labelIds: [...new Set(changes.labelIds ?? [])],
    toolIds: [...new Set(changes.toolIds ?? [])],
    eventTypeIds: [...new Set(eventTypeReferences(tools).map((r) => r.id))],
    assistantIds: [...new Set(assistantReferences(tools).map((r) => r.id).filter((id) => id !== selfId))],
    inboundNumber: next.type === 'inbound' && next.phoneNumberId !== null
      ? { phoneNumberId: next.phoneNumberId, exceptAssistantId: selfId }
      : null,
  };
}

export interface RuleContext {
  readonly catalog: ReferenceCatalog;
  readonly owned: OwnedReferences;
  /** The assistant being updated; null on create. */
  readonly selfId: number | null;
  readonly targetPolicy: TargetUrlPolicy;
}

/**
 * Every rule of CONTRACT §3.1–§3.3 that looks beyond one field's shape, evaluated on the merged
 * state `next` (stored values overlaid by the request, defaults and resets applied).
 */
export function assistantRuleErrors(next: AssistantConfig, changes: AssistantChanges, ctx: RuleContext): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => addFieldError(errors, field, message);
  const { catalog, owned } = ctx;

  if (next.voiceId !== null) {
    const voice = catalog.voices.find((v) => v.id === next.voiceId);
    if (!voice) add('voice_id', ASSISTANT_MESSAGES.selectedInvalid('voice_id'));
    else if (!voiceSupportsMode(voice, next.mode)) add('voice_id', ASSISTANT_MESSAGES.voiceIncompatible);
  }
  if (changes.languageId !== undefined && !catalog.languages.some((l) => l.id === changes.languageId)) {
    add('language_id', ASSISTANT_MESSAGES.selectedInvalid('language_id'));
  }
  (changes.secondaryLanguageIds ?? []).forEach((id, i) => {
    if (!catalog.languages.some((l) => l.id === id)) add(`secondary_language_ids.${i}`, ASSISTANT_MESSAGES.selectedInvalid(`secondary_language_ids.${i}`));
  });
  // Errors are keyed by the wire name of the field (`llmModelId` → `llm_model_id`).
  const selectedInvalid = (key: keyof AssistantConfig) => add(snakeCase(key), ASSISTANT_MESSAGES.selectedInvalid(snakeCase(key)));
  const model = (key: 'llmModelId' | 'multimodalModelId' | 'chatLlmFallbackId', kind: ModelKind) => {
    const id = changes[key];
    if (id !== undefined && id !== null && !catalog.models.some((m) => m.id === id && m.kind === kind)) selectedInvalid(key);
  };
  model('llmModelId', 'llm');
  model('multimodalModelId', 'multimodal');
  model('chatLlmFallbackId', 'llm');
  const provider = (key: 'synthesizerProviderId' | 'transcriberProviderId', kind: ProviderKind) => {
    const id = changes[key];
    if (id !== undefined && id !== null && !catalog.providers.some((p) => p.id === id && p.kind === kind)) selectedInvalid(key);
  };
  provider('synthesizerProviderId', 'synthesizer');
  // Outside the pipeline the transcriber is forced to null, so whatever was sent does not matter.
  if (!isRealtimeMode(next.mode)) provider('transcriberProviderId', 'transcriber');

  if (isRealtimeMode(next.mode) && !next.allowInterruptions) add('allow_interruptions', ASSISTANT_MESSAGES.interruptionsRequired);
  if (isRealtimeMode(next.mode) && changes.knowledgebaseMode === 'prompt') add('knowledgebase_mode', ASSISTANT_MESSAGES.functionCallOnly);

  for (const key of ['webhookUrl', 'conversationEndedWebhookUrl'] as const) {
    const url = changes[key];
    if (typeof url === 'string' && !checkTargetUrl(url, ctx.targetPolicy).ok) add(snakeCase(key), ASSISTANT_MESSAGES.blockedUrl(snakeCase(key)));
  }
  if (next.isWebhookActive && next.webhookUrl === null) add('webhook_url', ASSISTANT_MESSAGES.webhookUrlRequired);

  const ownedId = (key: 'folderId' | 'knowledgebaseId' | 'phoneNumberId', ids: ReadonlySet<number>) => {
    const id = changes[key];
    if (id !== undefined && id !== null && !ids.has(id)) selectedInvalid(key);
  };
  ownedId('folderId', owned.folderIds);
  ownedId('knowledgebaseId', owned.knowledgeBaseIds);
  ownedId('phoneNumberId', owned.phoneNumberIds);
  if (owned.inboundNumberTaken && next.type === 'inbound' && next.phoneNumberId !== null && !errors.phone_number_id) {
    add('phone_number_id', ASSISTANT_MESSAGES.inboundNumberTaken);
  }

  (changes.labelIds ?? []).forEach((id, i) => {
    if (!owned.labelIds.has(id)) add(`label_ids.${i}`, ASSISTANT_MESSAGES.selectedInvalid(`label_ids.${i}`));
  });
  const seenNames = new Set<string>();
  const seenIds = new Set<number>();
  (changes.toolIds ?? []).forEach((id, i) => {
    const name = owned.toolNames.get(id);
    if (name === undefined) return add(`tool_ids.${i}`, ASSISTANT_MESSAGES.selectedInvalid(`tool_ids.${i}`));
    if (seenIds.has(id)) return;
    seenIds.add(id);
    if (seenNames.has(name) && !errors.tool_ids) add('tool_ids', ASSISTANT_MESSAGES.duplicateToolName(name));
    seenNames.add(name);
  });

  const tools = changes.tools ?? [];
  for (const ref of eventTypeReferences(tools)) {
    if (!owned.eventTypeIds.has(ref.id)) add(`tools.${ref.index}.event_type_id`, ASSISTANT_MESSAGES.eventTypeInvalid);
  }
  for (const ref of assistantReferences(tools)) {
    if (ref.id === ctx.selfId || !owned.assistantIds.has(ref.id)) add(`tools.${ref.index}.assistant_id`, ASSISTANT_MESSAGES.assistantInvalid);
  }
  if (changes.postCallSchema) Object.assign(errors, postCallSchemaErrors(changes.postCallSchema));
  return errors;
}
