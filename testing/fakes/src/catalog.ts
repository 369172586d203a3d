import { ReferenceCatalog } from '@voiceplane/domain';
import { CatalogRepository } from '@voiceplane/application';

/** The reference catalogue a test ships. */
export class InMemoryCatalogRepository implements CatalogRepository {
  constructor(private readonly shipped: ReferenceCatalog) {}

  async catalog(): Promise<ReferenceCatalog> {
    return this.shipped;
  }
}

/** A slice of the shipped catalogue (same ids and modes as the migration's seed), for unit tests. */
export const SAMPLE_CATALOG: ReferenceCatalog = {
  languages: [
    { id: 1, name: 'English', iso_2: 'en' },
    { id: 3, name: 'French', iso_2: 'fr' },
    { id: 5, name: 'German', iso_2: 'de' },
  ],
  voices: [
    {
      id: 1,
      name: 'Ava',
      language_id: 1,
      gender: 'female',
      accent: 'American',
      age: 'young',
      preview_url: null,
      synthesizer_provider_id: 1,
      modes: ['pipeline', 'dualplex'],
    },
    {
      id: 3,
      name: 'Lena',
      language_id: 5,
      gender: 'female',
      accent: 'German',
      age: 'young',
      preview_url: null,
      synthesizer_provider_id: 2,
      modes: ['pipeline', 'dualplex'],
    },
    {
      id: 5,
      name: 'alloy',
      language_id: null,
      gender: 'neutral',
      accent: null,
      age: null,
      preview_url: null,
      synthesizer_provider_id: null,
      modes: ['multimodal'],
    },
  ],
  models: [
    { id: 1, name: 'gpt-4o-mini', provider: 'openai', kind: 'llm' },
    { id: 2, name: 'gpt-4.1', provider: 'openai', kind: 'llm' },
    { id: 3, name: 'gpt-4o-realtime', provider: 'openai', kind: 'multimodal' },
  ],
  providers: [
    { id: 1, name: 'elevenlabs', kind: 'synthesizer' },
    { id: 2, name: 'cartesia', kind: 'synthesizer' },
    { id: 3, name: 'deepgram', kind: 'transcriber' },
  ],
};
