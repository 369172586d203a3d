import { char, columnCheck, integer, primaryKey, references, uniqueColumn, varchar } from './columns';
import { record } from './record';

/** The shipped reference catalogue (migration Assistants seeds it with stable ids). */

export interface LanguageRecord {
  id: number;
  name: string;
  iso_2: string;
}

export const languages = record<LanguageRecord>({
  name: 'languages',
  columns: {
    id: primaryKey('languages', integer()),
    name: varchar(64),
    iso_2: char(2),
  },
  uniques: [uniqueColumn('languages', 'iso_2')],
});

export interface SpeechProviderRecord {
  id: number;
  name: string;
  kind: string;
}

export const speechProviders = record<SpeechProviderRecord>({
  name: 'speech_providers',
  columns: {
    id: primaryKey('speech_providers', integer()),
    name: varchar(64),
    kind: varchar(16),
  },
  checks: [columnCheck('speech_providers', 'kind', `kind IN ('synthesizer', 'transcriber')`)],
});

export interface AiModelRecord {
  id: number;
  name: string;
  provider: string;
  kind: string;
}

export const aiModels = record<AiModelRecord>({
  name: 'ai_models',
  columns: {
    id: primaryKey('ai_models', integer()),
    name: varchar(64),
    provider: varchar(64),
    kind: varchar(16),
  },
  checks: [columnCheck('ai_models', 'kind', `kind IN ('llm', 'multimodal')`)],
});

export interface VoiceRecord {
  id: number;
  name: string;
  language_id: number | null;
  gender: string;
  accent: string | null;
  age: string | null;
  preview_url: string | null;
  synthesizer_provider_id: number | null;
  modes: string[];
}

export const voices = record<VoiceRecord>({
  name: 'voices',
  columns: {
    id: primaryKey('voices', integer()),
    name: varchar(64),
    language_id: integer(true),
    gender: varchar(16),
    accent: varchar(64, true),
    age: varchar(32, true),
    preview_url: varchar(2048, true),
    synthesizer_provider_id: integer(true),
    modes: { type: 'text', array: true },
  },
  foreignKeys: [
    references('voices', 'language_id', 'languages'),
    references('voices', 'synthesizer_provider_id', 'speech_providers'),
  ],
  checks: [columnCheck('voices', 'gender', `gender IN ('female', 'male', 'neutral')`)],
});

export const catalogRecords = [languages, speechProviders, aiModels, voices];
