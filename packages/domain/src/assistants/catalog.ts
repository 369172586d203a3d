import { AssistantMode } from './assistant';

/** Reference data shipped with the product; ids are stable per deployment. */
export interface Language {
  readonly id: number;
  readonly name: string;
  readonly iso_2: string;
}

export const VOICE_GENDERS = ['female', 'male', 'neutral'] as const;
export type VoiceGender = (typeof VOICE_GENDERS)[number];

export interface Voice {
  readonly id: number;
  readonly name: string;
  /** Null: multilingual, usable with every language. */
  readonly language_id: number | null;
  readonly gender: VoiceGender;
  readonly accent: string | null;
  readonly age: string | null;
  readonly preview_url: string | null;
  readonly synthesizer_provider_id: number | null;
  readonly modes: readonly AssistantMode[];
}

export const MODEL_KINDS = ['llm', 'multimodal'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

export interface Model {
  readonly id: number;
  readonly name: string;
  readonly provider: string;
  readonly kind: ModelKind;
}

export const PROVIDER_KINDS = ['synthesizer', 'transcriber'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export interface SpeechProvider {
  readonly id: number;
  readonly name: string;
  readonly kind: ProviderKind;
}

/** Every list is ordered by id ascending. */
export interface ReferenceCatalog {
  readonly languages: readonly Language[];
  readonly voices: readonly Voice[];
  readonly models: readonly Model[];
  readonly providers: readonly SpeechProvider[];
}

export const voiceSupportsMode = (voice: Voice, mode: AssistantMode): boolean => voice.modes.includes(mode);

/** A multilingual voice speaks every language. */
export const voiceSpeaks = (voice: Voice, languageId: number): boolean =>
  voice.language_id === null || voice.language_id === languageId;

/** The lowest-id voice of the language that works in the mode, else the lowest-id voice that works in it. */
export function defaultVoiceId(catalog: ReferenceCatalog, mode: AssistantMode, languageId: number): number | null {
  const usable = catalog.voices.filter((v) => voiceSupportsMode(v, mode));
  return (usable.find((v) => voiceSpeaks(v, languageId)) ?? usable[0])?.id ?? null;
}

export function defaultModelId(catalog: ReferenceCatalog, kind: ModelKind): number | null {
  return catalog.models.find((m) => m.kind === kind)?.id ?? null;
}

export function voicesMatching(
  catalog: ReferenceCatalog,
  filter: { mode?: AssistantMode; language_id?: number },
): Voice[] {
  return catalog.voices.filter(
    (v) =>
      (filter.mode === undefined || voiceSupportsMode(v, filter.mode)) &&
      (filter.language_id === undefined || voiceSpeaks(v, filter.language_id)),
  );
}

/**
 * The speech providers that can serve a language: a synthesizer with a voice that speaks it; every
 * transcriber (the catalogue's transcribers recognise every language it lists).
 */
export function providersFor(
  catalog: ReferenceCatalog,
  filter: { kind?: ProviderKind; language_id?: number },
): SpeechProvider[] {
  const { kind, language_id } = filter;
  return catalog.providers.filter(
    (p) =>
      (kind === undefined || p.kind === kind) &&
      (language_id === undefined ||
        p.kind === 'transcriber' ||
        catalog.voices.some((v) => v.synthesizer_provider_id === p.id && voiceSpeaks(v, language_id))),
  );
}

/** Refusals of the reference-data reads. */
export type ReferenceDataRefusal = 'unknown_language';
