import {
  Assistant, ASSISTANT_MESSAGES, AssistantChanges, AssistantConfig, assistantRuleErrors, draftAssistant, err, FieldErrors, hasFieldErrors,
  ok, ReferenceCatalog, referencesToCheck, Result, reviseAssistant, TargetUrlPolicy, webhookEventsOf,
} from '@voiceplane/domain';
import { UnitOfWork } from '../ports/unit-of-work';
import { AssistantRepository, CatalogRepository } from './ports';
import { toOutboxEvent } from './events';

export type SaveAssistantFailure =
  | { readonly code: 'not_found' }
  | { readonly code: 'invalid'; readonly errors: FieldErrors };

export interface SaveAssistantRequest {
  readonly userId: number;
  readonly changes: AssistantChanges;
  /**
   * Field-shape errors the transport already found. The rules still run over the fields that
   * were well-formed, so the client sees every problem in one answer (CONTRACT §1.6).
   */
  readonly shapeErrors?: FieldErrors;
}

const invalid = (errors: FieldErrors) => err({ code: 'invalid' as const, errors });

/** Shape errors first; a rule error on a field that already failed its shape adds nothing useful. */
function mergeErrors(shape: FieldErrors, rules: FieldErrors): FieldErrors {
  const out: FieldErrors = { ...shape };
  for (const [field, messages] of Object.entries(rules)) if (!out[field]) out[field] = messages;
  return out;
}

/** Create and update of an assistant (CONTRACT §3.4, §3.5): defaults, resets, rules, references, events. */
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
    const errors = await this.errorsOf(userId, config, changes, catalog, null, request.shapeErrors ?? {});
    if (hasFieldErrors(errors)) return invalid(errors);
    const saved = await this.uow.transaction(() => this.assistants.create(userId, config));
    if (saved === 'inbound_number_taken') return invalid({ phone_number_id: [ASSISTANT_MESSAGES.inboundNumberTaken] });
    return ok(saved);
  }

  async update(request: SaveAssistantRequest & { readonly assistantId: number }): Promise<Result<Assistant, SaveAssistantFailure>> {
    const { userId, changes } = request;
    const catalog = await this.catalogs.catalog();
    const saved = await this.assistants.update(userId, request.assistantId, async (stored) => {
      const next = reviseAssistant(stored, changes, catalog);
      const errors = await this.errorsOf(userId, next, changes, catalog, stored.id, request.shapeErrors ?? {});
      if (hasFieldErrors(errors)) return invalid(errors);
      return ok({
        write: { kind: 'config' as const, config: next, replace: { toolIds: changes.toolIds !== undefined, labelIds: changes.labelIds !== undefined } },
        events: webhookEventsOf(stored, next).map(toOutboxEvent),
      });
    });
    if (saved.ok) return saved;
    if (saved.error === 'inbound_number_taken') return invalid({ phone_number_id: [ASSISTANT_MESSAGES.inboundNumberTaken] });
    return err(saved.error);
  }

  private async errorsOf(
    userId: number, next: AssistantConfig, changes: AssistantChanges, catalog: ReferenceCatalog, selfId: number | null, shapeErrors: FieldErrors,
  ): Promise<FieldErrors> {
    const owned = await this.assistants.findOwnedReferences(userId, referencesToCheck(changes, next, selfId));
    return mergeErrors(shapeErrors, assistantRuleErrors(next, changes, { catalog, owned, selfId, targetPolicy: this.targetPolicy }));
  }
}
