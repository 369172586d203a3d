import { ASSISTANT_DEFAULTS, AssistantChanges, AssistantConfig, AssistantMode, isRealtimeMode } from './assistant';
import { defaultModelId, defaultVoiceId, ReferenceCatalog, voiceSupportsMode } from './catalog';

/**
 * How a request becomes the configuration to store: defaults on
 * create, overlay on update, the resets a mode change implies, and the values a mode forces.
 * Validation happens afterwards, on the result.
 */

const sent = <K extends keyof AssistantChanges>(changes: AssistantChanges, key: K): boolean =>
  changes[key] !== undefined;

function overlay(base: AssistantConfig, changes: AssistantChanges): AssistantConfig {
  const next: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) next[key] = value;
  for (const key of ['secondaryLanguageIds', 'labelIds', 'toolIds'] as const) {
    if (sent(changes, key)) next[key] = [...new Set(changes[key])];
  }
  return next as unknown as AssistantConfig;
}

export function draftAssistant(
  changes: AssistantChanges & { name: string },
  catalog: ReferenceCatalog,
): AssistantConfig {
  const mode: AssistantMode = changes.mode ?? ASSISTANT_DEFAULTS.mode;
  const languageId = changes.languageId ?? ASSISTANT_DEFAULTS.languageId;
  const base: AssistantConfig = {
    ...ASSISTANT_DEFAULTS,
    name: changes.name,
    voiceId: defaultVoiceId(catalog, mode, languageId),
    llmModelId: defaultModelId(catalog, 'llm'),
    multimodalModelId: isRealtimeMode(mode) ? defaultModelId(catalog, 'multimodal') : null,
    knowledgebaseMode: null,
  };
  return withDerivedValues(overlay(base, changes));
}

export function reviseAssistant(
  stored: AssistantConfig,
  changes: AssistantChanges,
  catalog: ReferenceCatalog,
): AssistantConfig {
  let next = overlay(stored, changes);
  if (next.mode !== stored.mode) next = resetForMode(next, changes, catalog);
  return withDerivedValues(withWebhookIntent(next, changes));
}

/** Mode-specific settings the request did not send fall back to the new mode's defaults. */
function resetForMode(next: AssistantConfig, changes: AssistantChanges, catalog: ReferenceCatalog): AssistantConfig {
  const reset: Record<string, unknown> = {};
  const keep = (key: keyof AssistantChanges) => sent(changes, key);
  if (!keep('llmModelId')) reset.llmModelId = defaultModelId(catalog, 'llm');
  if (!keep('multimodalModelId'))
    reset.multimodalModelId = isRealtimeMode(next.mode) ? defaultModelId(catalog, 'multimodal') : null;
  if (!keep('synthesizerProviderId')) reset.synthesizerProviderId = null;
  if (!keep('transcriberProviderId')) reset.transcriberProviderId = null;
  if (!keep('voiceId')) {
    const voice = catalog.voices.find((v) => v.id === next.voiceId);
    if (!voice || !voiceSupportsMode(voice, next.mode))
      reset.voiceId = defaultVoiceId(catalog, next.mode, next.languageId);
  }
  if (isRealtimeMode(next.mode)) {
    if (!keep('allowInterruptions')) reset.allowInterruptions = true;
    if (!keep('knowledgebaseMode')) reset.knowledgebaseMode = 'function_call';
  }
  return { ...next, ...reset } as AssistantConfig;
}

/**
 * Values that follow from others: fillers and the transcriber exist only in the pipeline engine;
 * a knowledge-base mode exists exactly when a knowledge base is set (default `function_call`).
 */
function withDerivedValues(config: AssistantConfig): AssistantConfig {
  const knowledgebaseMode = config.knowledgebaseId === null ? null : (config.knowledgebaseMode ?? 'function_call');
  if (!isRealtimeMode(config.mode)) return { ...config, knowledgebaseMode };
  return { ...config, knowledgebaseMode, fillers: false, transcriberProviderId: null };
}

/**
 * `is_webhook_active: false` or `webhook_url: null` is the disable-webhook transition:
 * both halves change unless the request sent the other half itself.
 */
function withWebhookIntent(next: AssistantConfig, changes: AssistantChanges): AssistantConfig {
  if (changes.isWebhookActive === false && !sent(changes, 'webhookUrl')) return { ...next, webhookUrl: null };
  if (changes.webhookUrl === null && !sent(changes, 'isWebhookActive')) return { ...next, isWebhookActive: false };
  return next;
}
