import { ReferenceCatalog } from '@voiceplane/domain';
import { CatalogRepository } from '@voiceplane/application';

/** The reference catalogue a test ships. */
export class InMemoryCatalogRepository implements CatalogRepository {
  constructor(private readonly shipped: ReferenceCatalog) {}

  async catalog(): Promise<ReferenceCatalog> {
    return this.shipped;
  }
}
