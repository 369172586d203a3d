import {
  canAddDocument, canCreateKnowledgeBase, KnowledgeBase, KnowledgeBaseDocument, KnowledgeBaseRefusal, Plan, Result, err, ok,
} from '@voiceplane/domain';
import { UserRepository } from '../ports/accounts';
import { UnitOfWork } from '../ports/unit-of-work';
import { JobScheduler } from '../events/ports';
import { Clock } from '../ports/clock';
import { KnowledgeBaseRepository, KnowledgeDocumentRepository, NewDocument } from './ports';

export const PROCESS_DOCUMENT_JOB = 'knowledge_base.document.process';

/**
 * Creating knowledge bases and adding documents: the plan's limits are checked with the account
 * locked, so two requests at once cannot both take the last place, and a new document's processing
 * is scheduled in the same transaction that stores it.
 */
export class KnowledgeBaseService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly knowledgeBases: KnowledgeBaseRepository,
    private readonly documents: KnowledgeDocumentRepository,
    private readonly jobs: JobScheduler,
    private readonly clock: Clock,
  ) {}

  create(userId: number, plan: Plan, kb: { name: string; description: string | null }): Promise<Result<KnowledgeBase, KnowledgeBaseRefusal>> {
    return this.uow.transaction(async () => {
      await this.users.lockBalance(userId);
      const refusal = canCreateKnowledgeBase(plan, await this.knowledgeBases.usage(userId));
      if (refusal) return err(refusal);
      return ok(await this.knowledgeBases.create(userId, { ...kb, status: 'empty' }));
    });
  }

  addDocument(userId: number, plan: Plan, knowledgeBaseId: number, document: NewDocument): Promise<Result<KnowledgeBaseDocument, KnowledgeBaseRefusal>> {
    return this.uow.transaction(async () => {
      await this.users.lockBalance(userId);
      if (!(await this.knowledgeBases.findOwned(userId, knowledgeBaseId))) return err('not_found' as const);
      const refusal = canAddDocument(plan, await this.knowledgeBases.usage(userId), document.sizeBytes);
      if (refusal) return err(refusal);
      const added = await this.documents.add(userId, knowledgeBaseId, document);
      if (!added) return err('not_found' as const);
      await this.jobs.schedule({ kind: PROCESS_DOCUMENT_JOB, payload: { document_id: added.id }, runAt: this.clock.now(), key: `kb-document:${added.id}` });
      return ok(added);
    });
  }
}
