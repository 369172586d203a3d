import { err, EventType, KnowledgeBase, KnowledgeBaseStatus, ok, Result } from '@voiceplane/domain';
import { UserRepository } from '../ports';
import { KnowledgeBaseRepository } from '../knowledge-bases';
import { UnitOfWork } from '../ports';
import { AssistantNotFound, AssistantRepository, EventTypeRepository } from './ports';

/** What the operator's assistant routes reach. */
export interface AssistantAdministrationStores {
  readonly assistants: AssistantRepository;
  readonly knowledgeBases: KnowledgeBaseRepository;
  readonly eventTypes: EventTypeRepository;
  readonly users: UserRepository;
  readonly uow: UnitOfWork;
}

/**
 * The operator acts on any account: a compliance block on an assistant, records created for a
 * user. A missing user is refused before anything is written; no plan limit applies to the operator.
 */
export class AdministerAssistants {
  constructor(private readonly stores: AssistantAdministrationStores) {}

  /** Leaves `status` alone; activation, calls and chat replies consult the flag. */
  async setCompliance(
    assistantId: number,
    blocked: boolean,
    reason: string | null,
  ): Promise<Result<true, AssistantNotFound>> {
    return (await this.stores.assistants.setCompliance(assistantId, blocked, reason))
      ? ok(true)
      : err({ code: 'not_found' });
  }

  async createKnowledgeBase(
    userId: number,
    kb: { readonly name: string; readonly description: string | null; readonly status: KnowledgeBaseStatus },
  ): Promise<Result<KnowledgeBase, 'user_not_found'>> {
    if (!(await this.userExists(userId))) return err('user_not_found');
    // Concludes in the created row's own commit, as every create does.
    return this.stores.uow.transaction(
      async () =>
        ok(
          await this.stores.knowledgeBases.create(userId, {
            name: kb.name,
            description: kb.description,
            status: kb.status,
          }),
        ),
      { concludes: true },
    );
  }

  async createEventType(
    userId: number,
    eventType: { readonly name: string; readonly durationMinutes: number },
  ): Promise<Result<EventType, 'user_not_found'>> {
    if (!(await this.userExists(userId))) return err('user_not_found');
    return this.stores.uow.transaction(
      async () =>
        ok(
          await this.stores.eventTypes.create(userId, {
            name: eventType.name,
            durationMinutes: eventType.durationMinutes,
          }),
        ),
      { concludes: true },
    );
  }

  private async userExists(userId: number): Promise<boolean> {
    return (await this.stores.users.findById(userId)) !== null;
  }
}
