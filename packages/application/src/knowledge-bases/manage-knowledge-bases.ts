import {
  canAddDocument,
  canCreateKnowledgeBase,
  KnowledgeBase,
  KnowledgeBaseDocument,
  KnowledgeBaseRefusal,
  Plan,
  Result,
  err,
  ok,
} from '@voiceplane/domain';
import { UserRepository } from '../ports';
import { UnitOfWork } from '../ports';
import { JobScheduler, NewJob } from '../events';
import { Clock } from '../ports';
import { KnowledgeBaseChanges, KnowledgeBaseRepository, KnowledgeDocumentRepository, NewDocument } from './ports';

export const PROCESS_DOCUMENT_JOB = 'knowledge_base.document.process';

/** Reading a document, scheduled now or later: one job per document. */
export function processDocumentJobFor(documentId: number, runAt: Date): NewJob {
  return { kind: PROCESS_DOCUMENT_JOB, payload: { document_id: documentId }, runAt, key: `kb-document:${documentId}` };
}

/**
 * An account's knowledge bases and their documents, another account's never reached (`not_found`,
 * `document_not_found`). The plan's limits are checked with the account locked, so two requests at
 * once cannot both take the last place, and a new document's processing is scheduled in the same
 * transaction that stores it. What a request carries past the ids comes as a function, read only
 * once the knowledge base (or document) is known to be the caller's: a stranger's id is not found
 * whatever was sent with it.
 */
export class ManageKnowledgeBases {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly knowledgeBases: KnowledgeBaseRepository,
    private readonly documents: KnowledgeDocumentRepository,
    private readonly jobs: JobScheduler,
    private readonly clock: Clock,
  ) {}

  list(userId: number): Promise<KnowledgeBase[]> {
    return this.knowledgeBases.listOwned(userId);
  }

  async get(userId: number, id: number): Promise<Result<KnowledgeBase, 'not_found'>> {
    const kb = await this.knowledgeBases.findOwned(userId, id);
    return kb === null ? err('not_found') : ok(kb);
  }

  create(
    userId: number,
    plan: Plan,
    kb: { name: string; description: string | null },
  ): Promise<Result<KnowledgeBase, KnowledgeBaseRefusal>> {
    return this.uow.transaction(
      async () => {
        await this.users.lockBalance(userId);
        const refusal = canCreateKnowledgeBase(plan, await this.knowledgeBases.usage(userId));
        if (refusal) return err(refusal);
        return ok(await this.knowledgeBases.create(userId, { ...kb, status: 'empty' }));
      },
      { concludes: true },
    );
  }

  async update(
    userId: number,
    id: number,
    changesOf: () => KnowledgeBaseChanges,
  ): Promise<Result<KnowledgeBase, 'not_found'>> {
    if ((await this.knowledgeBases.findOwned(userId, id)) === null) return err('not_found');
    const kb = await this.knowledgeBases.update(userId, id, changesOf());
    return kb === null ? err('not_found') : ok(kb);
  }

  async delete(userId: number, id: number): Promise<Result<true, 'not_found'>> {
    return (await this.knowledgeBases.delete(userId, id)) ? ok(true) : err('not_found');
  }

  /** Oldest first. */
  async documentsOf(userId: number, id: number): Promise<Result<KnowledgeBaseDocument[], 'not_found'>> {
    const docs = await this.documents.list(userId, id);
    return docs === null ? err('not_found') : ok(docs);
  }

  async addDocument(
    userId: number,
    plan: Plan,
    knowledgeBaseId: number,
    documentOf: () => NewDocument,
  ): Promise<Result<KnowledgeBaseDocument, KnowledgeBaseRefusal>> {
    if ((await this.knowledgeBases.findOwned(userId, knowledgeBaseId)) === null) return err('not_found');
    const document = documentOf();
    return this.uow.transaction(
      async () => {
        await this.users.lockBalance(userId);
        // Looked up again under the account's lock: it may have been deleted since.
        if (!(await this.knowledgeBases.findOwned(userId, knowledgeBaseId))) return err('not_found' as const);
        const refusal = canAddDocument(plan, await this.knowledgeBases.usage(userId), document.sizeBytes);
        if (refusal) return err(refusal);
        const added = await this.documents.add(userId, knowledgeBaseId, document);
        if (!added) return err('not_found' as const);
        await this.jobs.schedule(processDocumentJobFor(added.id, this.clock.now()));
        return ok(added);
      },
      { concludes: true },
    );
  }

  async document(
    userId: number,
    knowledgeBaseId: number,
    documentId: number,
  ): Promise<Result<KnowledgeBaseDocument, 'document_not_found'>> {
    const doc = await this.documents.find(userId, knowledgeBaseId, documentId);
    return doc === null ? err('document_not_found') : ok(doc);
  }

  async renameDocument(
    userId: number,
    knowledgeBaseId: number,
    documentId: number,
    changesOf: () => KnowledgeBaseChanges,
  ): Promise<Result<KnowledgeBaseDocument, 'document_not_found'>> {
    if ((await this.documents.find(userId, knowledgeBaseId, documentId)) === null) return err('document_not_found');
    const doc = await this.documents.rename(userId, knowledgeBaseId, documentId, changesOf());
    return doc === null ? err('document_not_found') : ok(doc);
  }

  async deleteDocument(
    userId: number,
    knowledgeBaseId: number,
    documentId: number,
  ): Promise<Result<true, 'document_not_found'>> {
    return (await this.documents.delete(userId, knowledgeBaseId, documentId)) ? ok(true) : err('document_not_found');
  }
}
