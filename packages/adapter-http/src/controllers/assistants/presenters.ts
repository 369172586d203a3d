import { Assistant, EventType, OutboundAssistant } from '@voiceplane/domain';
import { Folder } from '@voiceplane/application';
import { iso } from '../../presenters/format';

/** `data` of create, update, activate and deactivate (fixed). */
export function presentAssistantSummary(a: Assistant) {
  return { id: a.id, name: a.name, status: a.status, type: a.type, mode: a.mode };
}

/** The full assistant record: every field with its stored value, plus the read-only fields. */
export function presentAssistant(a: Assistant) {
  return {
    id: a.id,
    uuid: a.uuid,
    user_id: a.userId,
    name: a.name,
    type: a.type,
    mode: a.mode,
    status: a.status,
    compliance_blocked: a.complianceBlocked,
    timezone: a.timezone,
    initial_message: a.initialMessage,
    system_prompt: a.systemPrompt,
    knowledgebase_mode: a.knowledgebaseMode,
    reengagement_prompt: a.reengagementPrompt,
    voice_mail_message: a.voiceMailMessage,
    endpoint_type: a.endpointType,
    ambient_sound: a.ambientSound,
    webhook_url: a.webhookUrl,
    conversation_ended_webhook_url: a.conversationEndedWebhookUrl,
    voice_id: a.voiceId,
    language_id: a.languageId,
    llm_model_id: a.llmModelId,
    multimodal_model_id: a.multimodalModelId,
    chat_llm_fallback_id: a.chatLlmFallbackId,
    knowledgebase_id: a.knowledgebaseId,
    folder_id: a.folderId,
    phone_number_id: a.phoneNumberId,
    synthesizer_provider_id: a.synthesizerProviderId,
    transcriber_provider_id: a.transcriberProviderId,
    secondary_language_ids: a.secondaryLanguageIds,
    label_ids: a.labelIds,
    tool_ids: a.toolIds,
    tools: a.tools,
    post_call_schema: a.postCallSchema,
    turn_detection_threshold: a.turnDetectionThreshold,
    voice_stability: a.voiceStability,
    voice_similarity: a.voiceSimilarity,
    speech_speed: a.speechSpeed,
    llm_temperature: a.llmTemperature,
    max_duration: a.maxDuration,
    max_silence_duration: a.maxSilenceDuration,
    max_initial_silence_duration: a.maxInitialSilenceDuration,
    ringing_time: a.ringingTime,
    reengagement_interval: a.reengagementInterval,
    endpoint_sensitivity: a.endpointSensitivity,
    interrupt_sensitivity: a.interruptSensitivity,
    min_interrupt_words: a.minInterruptWords,
    ambient_sound_volume: a.ambientSoundVolume,
    conversation_inactivity_timeout: a.conversationInactivityTimeout,
    tts_emotion_enabled: a.ttsEmotionEnabled,
    allow_interruptions: a.allowInterruptions,
    fillers: a.fillers,
    record: a.record,
    enable_noise_cancellation: a.enableNoiseCancellation,
    wait_for_customer: a.waitForCustomer,
    end_call_on_voicemail: a.endCallOnVoicemail,
    is_webhook_active: a.isWebhookActive,
    send_webhook_only_on_completed: a.sendWebhookOnlyOnCompleted,
    include_recording_in_webhook: a.includeRecordingInWebhook,
    post_call_evaluation: a.postCallEvaluation,
    conversation_ended_retrigger: a.conversationEndedRetrigger,
    filler_config: a.fillerConfig,
    variables: a.variables,
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
  };
}

/** Exactly the fixed fields of the outbound list, in their documented order. */
export function presentOutboundAssistant(a: OutboundAssistant) {
  return {
    id: a.id,
    user_id: a.userId,
    name: a.name,
    type: a.type,
    mode: a.mode,
    status: a.status,
    voice_id: a.voiceId,
    language_id: a.languageId,
    timezone: a.timezone,
    initial_message: a.initialMessage,
    system_prompt: a.systemPrompt,
    variables: a.variables,
    webhook_url: a.webhookUrl,
    is_webhook_active: a.isWebhookActive,
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
  };
}

export function presentFolder(g: Folder) {
  return { id: g.id, name: g.name, color: g.color, assistants_count: g.assistantsCount };
}

export function presentEventType(e: EventType) {
  return { id: e.id, name: e.name, duration_minutes: e.durationMinutes, created_at: iso(e.createdAt) };
}
