import { ASSISTANT_DEFAULTS, AssistantChanges, AssistantConfig, AssistantMode, isRealtimeMode } from './assistant';
import { defaultModelId, defaultVoiceId, ReferenceCatalog, voiceSupportsMode } from './catalog';

/**
 * How a request becomes the configuration to store (CONTRACT §3.1, §3.2, §3.5): defaults on
 * create, overlay on update, the resets a mode change implies, and the values a mode forces.
 * Validation happens afterwards, on the result.
 */

const sent = <K extends keyof AssistantChanges>(changes: AssistantChanges, key: K): boolean => changes[key] !== undefined;

function overlay(base: AssistantConfig, changes: AssistantChanges): AssistantConfig {
  const next: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) next[key] = value;
  for (const key of ['secondary_language_ids', 'label_ids', 'tool_ids'] as const) {
    if (sent(changes, key)) next[key] = [...new Set(changes[key])];
  }
  return next as unknown as AssistantConfig;
}

export function draftAssistant(changes: AssistantChanges & { name: string }, catalog: ReferenceCatalog): AssistantConfig {
  const mode: AssistantMode = changes.mode ?? ASSISTANT_DEFAULTS.mode;
  const languageId = changes.language_id ?? ASSISTANT_DEFAULTS.language_id;
  const base: AssistantConfig = {
    ...ASSISTANT_DEFAULTS,
    name: changes.name,
    voice_id: defaultVoiceId(catalog, mode, languageId),
    llm_model_id: defaultModelId(catalog, 'llm'),
    multimodal_model_id: isRealtimeMode(mode) ? defaultModelId(catalog, 'multimodal') : null,
    knowledgebase_mode: null,
  };
  return withDerivedValues(overlay(base, changes));
}

export function reviseAssistant(stored: AssistantConfig, changes: AssistantChanges, catalog: ReferenceCatalog): AssistantConfig {
  let next = overlay(stored, changes);
  if (next.mode !== stored.mode) next = resetForMode(next, changes, catalog);
  return withDerivedValues(withWebhookIntent(next, changes));
}

/** Mode-specific settings the request did not send fall back to the new mode's defaults (§3.2). */
function resetForMode(next: AssistantConfig, changes: AssistantChanges, catalog: ReferenceCatalog): AssistantConfig {
  const reset: Record<string, unknown> = {};
  const keep = (key: keyof AssistantChanges) => sent(changes, key);
  if (!keep('llm_model_id')) reset.llm_model_id = defaultModelId(catalog, 'llm');
  if (!keep('multimodal_model_id')) reset.multimodal_model_id = isRealtimeMode(next.mode) ? defaultModelId(catalog, 'multimodal') : null;
  if (!keep('synthesizer_provider_id')) reset.synthesizer_provider_id = null;
  if (!keep('transcriber_provider_id')) reset.transcriber_provider_id = null;
  if (!keep('voice_id')) {
    const voice = catalog.voices.find((v) => v.id === next.voice_id);
    if (!voice || !voiceSupportsMode(voice, next.mode)) reset.voice_id = defaultVoiceId(catalog, next.mode, next.language_id);
  }
  if (isRealtimeMode(next.mode)) {
    if (!keep('allow_interruptions')) reset.allow_interruptions = true;
    if (!keep('knowledgebase_mode')) reset.knowledgebase_mode = 'function_call';
  }
  return { ...next, ...reset } as AssistantConfig;
}

/**
 * Values that follow from others: fillers and the transcriber exist only in the pipeline engine;
 * a knowledge-base mode exists exactly when a knowledge base is set (default `function_call`).
 */
function withDerivedValues(config: AssistantConfig): AssistantConfig {
  const knowledgebase_mode = config.knowledgebase_id === null ? null : config.knowledgebase_mode ?? 'function_call';
  if (!isRealtimeMode(config.mode)) return { ...config, knowledgebase_mode };
  return { ...config, knowledgebase_mode, fillers: false, transcriber_provider_id: null };
}

/**
 * `is_webhook_active: false` or `webhook_url: null` is the disable-webhook transition (§3.5):
 * both halves change unless the request sent the other half itself.
 */
function withWebhookIntent(next: AssistantConfig, changes: AssistantChanges): AssistantConfig {
  if (changes.is_webhook_active === false && !sent(changes, 'webhook_url')) return { ...next, webhook_url: null };
  if (changes.webhook_url === null && !sent(changes, 'is_webhook_active')) return { ...next, is_webhook_active: false };
  return next;
}
