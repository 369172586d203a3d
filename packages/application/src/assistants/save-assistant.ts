import {
  Assistant,
  AssistantChanges,
  AssistantConfig,
  AssistantProblem,
  assistantRuleProblems,
  draftAssistant,
  err,
  FieldProblems,
  hasFieldProblems,
  ok,
  ReferenceCatalog,
  referencesToCheck,
  Result,
  reviseAssistant,
  TargetUrlPolicy,
  webhookEventsOf,
} from '@voiceplane/domain';
import { UnitOfWork } from '../ports';
import { AssistantRepository, CatalogRepository } from './ports';
import { toOutboxEvent } from './events';

export type SaveAssistantFailure =
  | { readonly code: 'not_found' }
  /** Fields the transport refused for their shape, or broken rules on the others (`problems`). */
  | { readonly code: 'invalid'; readonly problems: FieldProblems<AssistantProblem> };

export interface SaveAssistantRequest {
  readonly userId: number;
  readonly changes: AssistantChanges;
  /**
   * Fields whose shape the transport already refused. The rules still run over the fields that
   * were well-formed, so the client sees every problem in one answer.
   */
  readonly malformedFields?: readonly string[];
}

const invalid = (problems: FieldProblems<AssistantProblem>) => err({ code: 'invalid' as const, problems });

/**
 * Null when nothing is wrong; otherwise the refusal with the rule problems of the well-formed
 * fields (a rule problem on a field that already failed its shape adds nothing useful).
 */
function refusalOf(problems: FieldProblems<AssistantProblem>, request: SaveAssistantRequest) {
  const malformed = request.malformedFields ?? [];
  if (malformed.length === 0 && !hasFieldProblems(problems)) return null;
  return invalid(Object.fromEntries(Object.entries(problems).filter(([field]) => !malformed.includes(field))));
}

/** Create and update of an assistant: defaults, resets, rules, references, events. */
export class SaveAssistant {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly assistants: AssistantRepository,
    private readonly catalogs: CatalogRepository,
    private readonly targetPolicy: TargetUrlPolicy,
  ) {}

  async create(request: SaveAssistantRequest): Promise<Result<Assistant, SaveAssistantFailure>> {
    const { userId, changes } = request;
    const catalog = await this.catalogs.catalog();
    // A missing name is already among the shape errors; '' only lets the other rules run.
    const config = draftAssistant({ ...changes, name: changes.name ?? '' }, catalog);
    const refusal = refusalOf(await this.problemsOf(userId, config, changes, catalog, null), request);
    if (refusal) return refusal;
    const outcome = (saved: Assistant | 'inbound_number_taken'): Result<Assistant, SaveAssistantFailure> =>
      saved === 'inbound_number_taken' ? invalid({ phone_number_id: ['inbound_number_taken'] }) : ok(saved);
    return outcome(await this.uow.transaction(() => this.assistants.create(userId, config), { concludes: outcome }));
  }

  async update(
    request: SaveAssistantRequest & { readonly assistantId: number },
  ): Promise<Result<Assistant, SaveAssistantFailure>> {
    const { userId, changes } = request;
    const catalog = await this.catalogs.catalog();
    const saved = await this.assistants.update(userId, request.assistantId, async (stored) => {
      const next = reviseAssistant(stored, changes, catalog);
      const refusal = refusalOf(await this.problemsOf(userId, next, changes, catalog, stored.id), request);
      if (refusal) return refusal;
      return ok({
        write: {
          kind: 'config' as const,
          config: next,
          replace: { toolIds: changes.toolIds !== undefined, labelIds: changes.labelIds !== undefined },
        },
        events: webhookEventsOf(stored, next).map(toOutboxEvent),
      });
    });
    if (saved.ok) return saved;
    if (saved.error === 'inbound_number_taken') return invalid({ phone_number_id: ['inbound_number_taken'] });
    return err(saved.error);
  }

  private async problemsOf(
    userId: number,
    next: AssistantConfig,
    changes: AssistantChanges,
    catalog: ReferenceCatalog,
    selfId: number | null,
  ): Promise<FieldProblems<AssistantProblem>> {
    const owned = await this.assistants.findOwnedReferences(userId, referencesToCheck(changes, next, selfId));
    return assistantRuleProblems(next, changes, { catalog, owned, selfId, targetPolicy: this.targetPolicy });
  }
}
