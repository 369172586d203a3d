import { Assistant, AssistantGroup, EventType, KnowledgeBase, OutboundAssistant } from '@voiceplane/application';
import { iso } from '../../presenters/format';

/** `data` of create, update, activate and deactivate (fixed). */
export function presentAssistantSummary(a: Assistant) {
  return { id: a.id, name: a.name, status: a.status, type: a.type, mode: a.mode };
}

/** The full record (A.1): every §3.1 field with its stored value, plus the read-only fields. */
export function presentAssistant(a: Assistant) {
  return {
    id: a.id,
    user_id: a.user_id,
    name: a.name,
    type: a.type,
    mode: a.mode,
    status: a.status,
    compliance_blocked: a.compliance_blocked,
    timezone: a.timezone,
    initial_message: a.initial_message,
    system_prompt: a.system_prompt,
    knowledgebase_mode: a.knowledgebase_mode,
    reengagement_prompt: a.reengagement_prompt,
    voice_mail_message: a.voice_mail_message,
    endpoint_type: a.endpoint_type,
    ambient_sound: a.ambient_sound,
    webhook_url: a.webhook_url,
    conversation_ended_webhook_url: a.conversation_ended_webhook_url,
    voice_id: a.voice_id,
    language_id: a.language_id,
    llm_model_id: a.llm_model_id,
    multimodal_model_id: a.multimodal_model_id,
    chat_llm_fallback_id: a.chat_llm_fallback_id,
    knowledgebase_id: a.knowledgebase_id,
    folder_id: a.folder_id,
    phone_number_id: a.phone_number_id,
    synthesizer_provider_id: a.synthesizer_provider_id,
    transcriber_provider_id: a.transcriber_provider_id,
    secondary_language_ids: a.secondary_language_ids,
    label_ids: a.label_ids,
    tool_ids: a.tool_ids,
    tools: a.tools,
    post_call_schema: a.post_call_schema,
    turn_detection_threshold: a.turn_detection_threshold,
    voice_stability: a.voice_stability,
    voice_similarity: a.voice_similarity,
    speech_speed: a.speech_speed,
    llm_temperature: a.llm_temperature,
    max_duration: a.max_duration,
    max_silence_duration: a.max_silence_duration,
    max_initial_silence_duration: a.max_initial_silence_duration,
    ringing_time: a.ringing_time,
    reengagement_interval: a.reengagement_interval,
    endpoint_sensitivity: a.endpoint_sensitivity,
    interrupt_sensitivity: a.interrupt_sensitivity,
    min_interrupt_words: a.min_interrupt_words,
    ambient_sound_volume: a.ambient_sound_volume,
    conversation_inactivity_timeout: a.conversation_inactivity_timeout,
    tts_emotion_enabled: a.tts_emotion_enabled,
    allow_interruptions: a.allow_interruptions,
    fillers: a.fillers,
    record: a.record,
    enable_noise_cancellation: a.enable_noise_cancellation,
    wait_for_customer: a.wait_for_customer,
    end_call_on_voicemail: a.end_call_on_voicemail,
    is_webhook_active: a.is_webhook_active,
    send_webhook_only_on_completed: a.send_webhook_only_on_completed,
    include_recording_in_webhook: a.include_recording_in_webhook,
    post_call_evaluation: a.post_call_evaluation,
    conversation_ended_retrigger: a.conversation_ended_retrigger,
    filler_config: a.filler_config,
    variables: a.variables,
    created_at: iso(a.created_at),
    updated_at: iso(a.updated_at),
  };
}

/** Exactly the fixed fields of A.2, in their documented order. */
export function presentOutboundAssistant(a: OutboundAssistant) {
  return {
    id: a.id, user_id: a.user_id, name: a.name, type: a.type, mode: a.mode, status: a.status,
    voice_id: a.voice_id, language_id: a.language_id, timezone: a.timezone, initial_message: a.initial_message,
    system_prompt: a.system_prompt, variables: a.variables, webhook_url: a.webhook_url,
    is_webhook_active: a.is_webhook_active, created_at: iso(a.created_at), updated_at: iso(a.updated_at),
  };
}

export function presentGroup(g: AssistantGroup) {
  return { id: g.id, name: g.name, color: g.color, assistants_count: g.assistants_count };
}

export function presentKnowledgeBase(k: KnowledgeBase) {
  return {
    id: k.id, name: k.name, description: k.description, status: k.status, documents_count: k.documents_count,
    assistants_count: k.assistants_count, created_at: iso(k.created_at), updated_at: iso(k.updated_at),
  };
}

export function presentEventType(e: EventType) {
  return { id: e.id, name: e.name, duration_minutes: e.duration_minutes, created_at: iso(e.created_at) };
}
