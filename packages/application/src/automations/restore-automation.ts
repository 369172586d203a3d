import { findTemplate, parseDefinition } from '@voiceplane/domain';
import { AssistantRepository } from '../assistants';
import { Clock } from '../ports';
import { Ids } from '../ports';
import { UnitOfWork } from '../ports';
import { Automation, AutomationRepository, AutomationVersion, RollbackFaults } from './ports';
import { TemplateChecks } from './template-checks';
import { GoneResource, Outcome, refused } from './template-outcome';
import { VersionPublisher } from './version-publisher';

export type RestoreRefusal =
  | { readonly code: 'not_found' }
  | { readonly code: 'no_previous_version' }
  | { readonly code: 'rollback_failed'; readonly versionNumber: number }
  | {
      readonly code: 'publish_failed';
      readonly versionNumber: number;
      readonly draft: AutomationVersion;
      readonly gone: readonly GoneResource[];
    };

export interface RestoredAutomation {
  readonly automation: Automation;
  /** The earlier version whose content is live again. */
  readonly restored: AutomationVersion;
  /** Its copy, now live. */
  readonly copy: AutomationVersion;
}

/**
 * The published version before the live one: latest `published_at` before the live version's.
 * Only that one, so restoring twice in a row toggles between the last two publishes.
 */
export function previousPublished(
  versions: readonly AutomationVersion[],
  liveVersionId: string | null,
): AutomationVersion | null {
  const live = versions.find((v) => v.id === liveVersionId);
  if (!live || live.publishedAt === null) return null;
  // Publishes within one clock tick are ordered by their numbers.
  const later = (a: AutomationVersion, b: AutomationVersion) =>
    (a.publishedAt as Date).getTime() - (b.publishedAt as Date).getTime() || a.number - b.number;
  const before = versions.filter((v) => v.state === 'published' && v.publishedAt !== null && later(v, live) < 0);
  return before.reduce<AutomationVersion | null>((best, v) => (best === null || later(v, best) > 0 ? v : best), null);
}

/** The stages of a restore: the resource checks, publishing the copy, and the sandbox's armed failures. */
export interface RestoreAutomationStages {
  readonly checks: TemplateChecks;
  readonly publisher: VersionPublisher;
  /** Null when no provider is the sandbox. */
  readonly faults: RollbackFaults | null;
}

/**
 * `POST /api/user/automate/flows/{id}/restore`: the previous version published
 * again as a new copy, without a test. Every refusal leaves the live version, the on/off status and
 * the linked tool as they were; `publish_failed` keeps only the draft copy. The copy and its publish
 * (or the refusal that keeps the draft) conclude in one transaction, where an idempotent answer is
 * stored with them.
 */
export class RestoreAutomation {
  constructor(
    private readonly automations: AutomationRepository,
    private readonly assistants: AssistantRepository,
    private readonly stages: RestoreAutomationStages,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(userId: number, automationId: string): Promise<Outcome<RestoredAutomation, RestoreRefusal>> {
    const automation = await this.automations.find(userId, automationId);
    const template = automation ? findTemplate(automation.templateKey) : null;
    if (automation === null || template === null) return refused({ code: 'not_found' });
    const previous = previousPublished(await this.automations.listVersions(automation.id), automation.liveVersionId);
    if (previous === null) return refused({ code: 'no_previous_version' });
    if (this.stages.faults?.claim(userId, automation.id) || !parseDefinition(previous.definition).ok) {
      return refused({ code: 'rollback_failed', versionNumber: previous.number });
    }

    const gone = await this.stages.checks.goneResources(template, userId, previous.params);
    if (automation.assistantId !== null && (await this.assistants.findOwned(userId, automation.assistantId)) === null) {
      gone.unshift({ spec: null, what: `assistant ${automation.assistantId}` });
    }
    return this.uow.transaction(
      async (): Promise<Outcome<RestoredAutomation, RestoreRefusal>> => {
        const copy = await this.automations.addVersion({
          id: this.ids.token('ver_', 22),
          automationId: automation.id,
          params: previous.params,
          definition: previous.definition,
          restoredFromVersionId: previous.id,
          createdAt: this.clock.now(),
        });
        if (gone.length > 0)
          return refused({ code: 'publish_failed', versionNumber: previous.number, draft: copy, gone });
        const published = await this.stages.publisher.publish(automation, copy, {
          testRunId: null,
          at: this.clock.now(),
          changes: {},
          plan: null,
        });
        // Only a tool still to be created can hit the limit, and a restore never creates one.
        if (published === 'tool_limit_reached') throw new Error(`Restore of ${automation.id} tried to create a tool.`);
        return { ok: true, value: { automation: published, restored: previous, copy } };
      },
      { concludes: true },
    );
  }
}
