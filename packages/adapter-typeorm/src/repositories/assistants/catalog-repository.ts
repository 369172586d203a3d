import { Language, Model, ReferenceCatalog, SpeechProvider, Voice } from '@voiceplane/domain';
import { CatalogRepository } from '@voiceplane/application';
import { Database } from '../../database';

/**
 * The catalogue is seed data that only a migration changes, so it is read once per process and
 * served from memory afterwards (every create and update consults it).
 */
export class TypeormCatalogRepository implements CatalogRepository {
  private loaded: Promise<ReferenceCatalog> | null = null;

  constructor(private readonly db: Database) {}

  catalog(): Promise<ReferenceCatalog> {
    this.loaded ??= this.load().catch((e) => {
      this.loaded = null;
      throw e;
    });
    return this.loaded;
  }

  /** One statement: the four lists as JSON arrays, each ordered by id. */
  private async load(): Promise<ReferenceCatalog> {
    const r = await this.db.one<{
      languages: Language[];
      voices: Voice[];
      models: Model[];
      providers: SpeechProvider[];
    }>(`
      SELECT
        (SELECT json_agg(json_build_object('id', id, 'name', name, 'iso_2', iso_2) ORDER BY id) FROM languages) AS languages,
        (SELECT json_agg(json_build_object('id', id, 'name', name, 'language_id', language_id, 'gender', gender, 'accent', accent,
                'age', age, 'preview_url', preview_url, 'synthesizer_provider_id', synthesizer_provider_id, 'modes', modes) ORDER BY id) FROM voices) AS voices,
        (SELECT json_agg(json_build_object('id', id, 'name', name, 'provider', provider, 'kind', kind) ORDER BY id) FROM ai_models) AS models,
        (SELECT json_agg(json_build_object('id', id, 'name', name, 'kind', kind) ORDER BY id) FROM speech_providers) AS providers`);
    return {
      languages: r?.languages ?? [],
      voices: r?.voices ?? [],
      models: r?.models ?? [],
      providers: r?.providers ?? [],
    };
  }
}
