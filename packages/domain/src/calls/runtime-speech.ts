import { AssistantConfig } from '../assistants/assistant';
import { ReferenceCatalog } from '../assistants/catalog';

/**
 * The provider's own id of each shipped catalogue voice (ElevenLabs voice ids, Cartesia voice
 * UUIDs, OpenAI Realtime voice names), keyed by catalogue voice id. Only the voice agent needs it,
 * through the runtime config: the public voices route never shows it.
 */
export const PROVIDER_VOICE_IDS: Readonly<Record<number, string>> = {
  1: '21m00Tcm4TlvDq8ikWAM', // Ava — ElevenLabs "Rachel"
  2: 'pNInz6obpgDQGcFmaJgB', // Noah — ElevenLabs "Adam"
  3: '3f4ade23-6eb4-4279-ab05-6a144947c4d5', // Lena — Cartesia "German Conversational Woman"
  4: 'a249eaff-1e96-4d2c-b23b-12efa4f66f41', // Léa — Cartesia "French Conversational Lady"
  5: 'alloy',
  6: 'verse',
};

/**
 * The catalogue entries an assistant's ids point at, resolved when the call starts so the voice
 * agent never needs the catalogue: names and providers instead of ids. Null where the assistant
 * names nothing or the id is unknown (the agent then ends the call as a configuration error).
 */
export interface RuntimeSpeech {
  readonly voice: {
    readonly id: number;
    readonly name: string;
    /** The voice's synthesizer (`elevenlabs`, `cartesia`); null for realtime-model voices. */
    readonly provider: string | null;
    readonly provider_voice_id: string | null;
  } | null;
  /** `synthesizer_provider_id` resolved; null = automatic (the voice's own provider). */
  readonly synthesizer: string | null;
  /** `transcriber_provider_id` resolved; null = automatic. */
  readonly transcriber: string | null;
  readonly llm_model: { readonly name: string; readonly provider: string } | null;
  readonly multimodal_model: { readonly name: string; readonly provider: string } | null;
  readonly chat_llm_fallback: { readonly name: string; readonly provider: string } | null;
}

type SpeechSettings = Pick<
  AssistantConfig,
  | 'voiceId'
  | 'synthesizerProviderId'
  | 'transcriberProviderId'
  | 'llmModelId'
  | 'multimodalModelId'
  | 'chatLlmFallbackId'
>;

export function runtimeSpeech(catalog: ReferenceCatalog, assistant: SpeechSettings): RuntimeSpeech {
  const provider = (id: number | null) =>
    id === null ? null : (catalog.providers.find((p) => p.id === id)?.name ?? null);
  const model = (id: number | null) => {
    const m = id === null ? undefined : catalog.models.find((x) => x.id === id);
    return m ? { name: m.name, provider: m.provider } : null;
  };
  const voice = assistant.voiceId === null ? undefined : catalog.voices.find((v) => v.id === assistant.voiceId);
  return {
    voice: voice
      ? {
          id: voice.id,
          name: voice.name,
          provider: provider(voice.synthesizer_provider_id),
          provider_voice_id: PROVIDER_VOICE_IDS[voice.id] ?? null,
        }
      : null,
    synthesizer: provider(assistant.synthesizerProviderId),
    transcriber: provider(assistant.transcriberProviderId),
    llm_model: model(assistant.llmModelId),
    multimodal_model: model(assistant.multimodalModelId),
    chat_llm_fallback: model(assistant.chatLlmFallbackId),
  };
}
