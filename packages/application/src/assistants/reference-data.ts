import {
  AssistantMode,
  err,
  EventType,
  Language,
  Model,
  ModelKind,
  ok,
  ProviderKind,
  providersFor,
  ReferenceCatalog,
  ReferenceDataRefusal,
  Result,
  SpeechProvider,
  Voice,
  voicesMatching,
} from '@voiceplane/domain';
import { CatalogRepository, EventTypeRepository } from './ports';

/** The shipped catalogue, filtered as asked, and the account's own scheduling event types. */
export class ReferenceData {
  constructor(
    private readonly catalogs: CatalogRepository,
    private readonly ownEventTypes: EventTypeRepository,
  ) {}

  async languages(): Promise<readonly Language[]> {
    return (await this.catalogs.catalog()).languages;
  }

  /** A language the catalogue does not know is refused rather than answered with no voices. */
  async voices(filter: {
    readonly mode?: AssistantMode;
    readonly languageId?: number;
  }): Promise<Result<Voice[], ReferenceDataRefusal>> {
    const catalog = await this.catalogs.catalog();
    if (!knowsLanguage(catalog, filter.languageId)) return err('unknown_language');
    return ok(voicesMatching(catalog, { mode: filter.mode, language_id: filter.languageId }));
  }

  async models(kind?: ModelKind): Promise<Model[]> {
    return (await this.catalogs.catalog()).models.filter((m) => kind === undefined || m.kind === kind);
  }

  /** Providers of a kind, those that can serve a language; a language the catalogue does not know is refused. */
  async providers(filter: {
    readonly kind?: ProviderKind;
    readonly languageId?: number;
  }): Promise<Result<SpeechProvider[], ReferenceDataRefusal>> {
    const catalog = await this.catalogs.catalog();
    if (!knowsLanguage(catalog, filter.languageId)) return err('unknown_language');
    return ok(providersFor(catalog, { kind: filter.kind, language_id: filter.languageId }));
  }

  eventTypes(userId: number): Promise<EventType[]> {
    return this.ownEventTypes.listOwned(userId);
  }
}

const knowsLanguage = (catalog: ReferenceCatalog, languageId: number | undefined): boolean =>
  languageId === undefined || catalog.languages.some((l) => l.id === languageId);
