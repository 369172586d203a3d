import { ReferenceCatalog } from '../src/assistants/catalog';

/** The shipped catalogue, for the tests of the assistant rules in the domain and in adapter-http. */
export const SHIPPED_CATALOG: ReferenceCatalog = {
  languages: [
    { id: 1, name: 'English', iso_2: 'en' }, { id: 2, name: 'Romanian', iso_2: 'ro' }, { id: 3, name: 'French', iso_2: 'fr' },
    { id: 5, name: 'German', iso_2: 'de' },
  ],
  voices: [
    { id: 1, name: 'Ava', language_id: 1, gender: 'female', accent: 'American', age: 'young', preview_url: null, synthesizer_provider_id: 1, modes: ['pipeline', 'dualplex'] },
    { id: 2, name: 'Noah', language_id: 1, gender: 'male', accent: 'American', age: 'middle_aged', preview_url: null, synthesizer_provider_id: 1, modes: ['pipeline', 'dualplex'] },
    { id: 3, name: 'Lena', language_id: 5, gender: 'female', accent: 'German', age: 'young', preview_url: null, synthesizer_provider_id: 2, modes: ['pipeline', 'dualplex'] },
    { id: 4, name: 'Léa', language_id: 3, gender: 'female', accent: 'Parisian French', age: 'young', preview_url: null, synthesizer_provider_id: 2, modes: ['pipeline', 'dualplex'] },
    { id: 5, name: 'alloy', language_id: null, gender: 'neutral', accent: null, age: null, preview_url: null, synthesizer_provider_id: null, modes: ['multimodal'] },
    { id: 6, name: 'verse', language_id: null, gender: 'male', accent: null, age: null, preview_url: null, synthesizer_provider_id: null, modes: ['multimodal'] },
  ],
  models: [
    { id: 1, name: 'gpt-4o-mini', provider: 'openai', kind: 'llm' },
    { id: 2, name: 'gpt-4.1', provider: 'openai', kind: 'llm' },
    { id: 3, name: 'gpt-4o-realtime', provider: 'openai', kind: 'multimodal' },
  ],
  providers: [
    { id: 1, name: 'elevenlabs', kind: 'synthesizer' }, { id: 2, name: 'cartesia', kind: 'synthesizer' }, { id: 3, name: 'deepgram', kind: 'transcriber' },
  ],
};
