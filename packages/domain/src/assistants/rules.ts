import { addFieldProblem, FieldProblems } from '../common/field-problems';
import { snakeCase } from '../common/case';
import { checkTargetUrl, TargetUrlPolicy } from '../net/target-policy';
import { AssistantChanges, AssistantConfig, isRealtimeMode } from './assistant';
import { ModelKind, ProviderKind, ReferenceCatalog, voiceSupportsMode } from './catalog';
import { assistantReferences, eventTypeReferences } from './built-in-tools';
import { PostCallSchemaProblem, postCallSchemaProblems } from './post-call-schema';

/**
 * What the cross-field rules can find wrong with a field; the transport words
 * each (most read "The selected <field> is invalid.").
 */
export type AssistantProblem =
  | 'selected_invalid'
  | 'voice_incompatible'
  | 'interruptions_required'
  | 'function_call_only'
  | 'webhook_url_required'
  | 'blocked_url'
  | 'inbound_number_taken'
  | 'event_type_invalid'
  | 'assistant_invalid'
  | PostCallSchemaProblem
  | { readonly code: 'duplicate_tool_name'; readonly name: string };

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
export function referencesToCheck(
  changes: AssistantChanges,
  next: AssistantConfig,
  selfId: number | null,
): ReferenceQuery {
  const tools = changes.tools ?? [];
  return {
    folderIds: idOf(changes.folderId),
    knowledgeBaseIds: idOf(changes.knowledgebaseId),
    phoneNumberIds: idOf(changes.phoneNumberId),
    labelIds: [...new Set(changes.labelIds ?? [])],
    toolIds: [...new Set(changes.toolIds ?? [])],
    eventTypeIds: [...new Set(eventTypeReferences(tools).map((r) => r.id))],
    assistantIds: [
      ...new Set(
        assistantReferences(tools)
          .map((r) => r.id)
          .filter((id) => id !== selfId),
      ),
    ],
    inboundNumber:
      next.type === 'inbound' && next.phoneNumberId !== null
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
 * Every rule that looks beyond one field's shape, evaluated on the merged
 * state `next` (stored values overlaid by the request, defaults and resets applied).
 */
export function assistantRuleProblems(
  next: AssistantConfig,
  changes: AssistantChanges,
  ctx: RuleContext,
): FieldProblems<AssistantProblem> {
  const problems: FieldProblems<AssistantProblem> = {};
  const add = (field: string, problem: AssistantProblem) => addFieldProblem(problems, field, problem);
  const { catalog, owned } = ctx;

  if (next.voiceId !== null) {
    const voice = catalog.voices.find((v) => v.id === next.voiceId);
    if (!voice) add('voice_id', 'selected_invalid');
    else if (!voiceSupportsMode(voice, next.mode)) add('voice_id', 'voice_incompatible');
  }
  if (changes.languageId !== undefined && !catalog.languages.some((l) => l.id === changes.languageId)) {
    add('language_id', 'selected_invalid');
  }
  (changes.secondaryLanguageIds ?? []).forEach((id, i) => {
    if (!catalog.languages.some((l) => l.id === id)) add(`secondary_language_ids.${i}`, 'selected_invalid');
  });
  // Problems are keyed by the wire name of the field (`llmModelId` → `llm_model_id`).
  const model = (key: 'llmModelId' | 'multimodalModelId' | 'chatLlmFallbackId', kind: ModelKind) => {
    const id = changes[key];
    if (id !== undefined && id !== null && !catalog.models.some((m) => m.id === id && m.kind === kind))
      add(snakeCase(key), 'selected_invalid');
  };
  model('llmModelId', 'llm');
  model('multimodalModelId', 'multimodal');
  model('chatLlmFallbackId', 'llm');
  const provider = (key: 'synthesizerProviderId' | 'transcriberProviderId', kind: ProviderKind) => {
    const id = changes[key];
    if (id !== undefined && id !== null && !catalog.providers.some((p) => p.id === id && p.kind === kind))
      add(snakeCase(key), 'selected_invalid');
  };
  provider('synthesizerProviderId', 'synthesizer');
  // Outside the pipeline the transcriber is forced to null, so whatever was sent does not matter.
  if (!isRealtimeMode(next.mode)) provider('transcriberProviderId', 'transcriber');

  if (isRealtimeMode(next.mode) && !next.allowInterruptions) add('allow_interruptions', 'interruptions_required');
  if (isRealtimeMode(next.mode) && changes.knowledgebaseMode === 'prompt')
    add('knowledgebase_mode', 'function_call_only');

  for (const key of ['webhookUrl', 'conversationEndedWebhookUrl'] as const) {
    const url = changes[key];
    if (typeof url === 'string' && !checkTargetUrl(url, ctx.targetPolicy).ok) add(snakeCase(key), 'blocked_url');
  }
  if (next.isWebhookActive && next.webhookUrl === null) add('webhook_url', 'webhook_url_required');

  const ownedId = (key: 'folderId' | 'knowledgebaseId' | 'phoneNumberId', ids: ReadonlySet<number>) => {
    const id = changes[key];
    if (id !== undefined && id !== null && !ids.has(id)) add(snakeCase(key), 'selected_invalid');
  };
  ownedId('folderId', owned.folderIds);
  ownedId('knowledgebaseId', owned.knowledgeBaseIds);
  ownedId('phoneNumberId', owned.phoneNumberIds);
  if (owned.inboundNumberTaken && next.type === 'inbound' && next.phoneNumberId !== null && !problems.phone_number_id) {
    add('phone_number_id', 'inbound_number_taken');
  }

  (changes.labelIds ?? []).forEach((id, i) => {
    if (!owned.labelIds.has(id)) add(`label_ids.${i}`, 'selected_invalid');
  });
  const seenNames = new Set<string>();
  const seenIds = new Set<number>();
  (changes.toolIds ?? []).forEach((id, i) => {
    const name = owned.toolNames.get(id);
    if (name === undefined) return add(`tool_ids.${i}`, 'selected_invalid');
    if (seenIds.has(id)) return;
    seenIds.add(id);
    if (seenNames.has(name) && !problems.tool_ids) add('tool_ids', { code: 'duplicate_tool_name', name });
    seenNames.add(name);
  });

  const tools = changes.tools ?? [];
  for (const ref of eventTypeReferences(tools)) {
    if (!owned.eventTypeIds.has(ref.id)) add(`tools.${ref.index}.event_type_id`, 'event_type_invalid');
  }
  for (const ref of assistantReferences(tools)) {
    if (ref.id === ctx.selfId || !owned.assistantIds.has(ref.id))
      add(`tools.${ref.index}.assistant_id`, 'assistant_invalid');
  }
  if (changes.postCallSchema) Object.assign(problems, postCallSchemaProblems(changes.postCallSchema));
  return problems;
}
