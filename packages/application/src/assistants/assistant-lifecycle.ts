import {
  activate,
  ActivationRefusal,
  Assistant,
  assistantDeleted,
  AssistantStatus,
  checkTargetUrl,
  disableWebhook,
  enableWebhook,
  err,
  ok,
  Result,
  TargetUrlPolicy,
  webhookUrlEvents,
  WebhookTarget,
} from '@voiceplane/domain';
import { UnitOfWork } from '../ports';
import { Outbox } from '../ports';
import { AssistantChange, AssistantNotFound, AssistantRepository, InboundNumberTaken } from './ports';
import { toOutboxEvent } from './events';

type NotFound = AssistantNotFound;
export type ActivationFailure = NotFound | ActivationRefusal;
/** Enabling refuses a URL outside the outbound policy. */
export type WebhookSwitchRefusal = NotFound | { readonly code: 'blocked_url' };

/** `status` changes; both directions are idempotent. Each concludes in the commit of its change. */
export class ChangeAssistantStatus {
  constructor(
    private readonly assistants: AssistantRepository,
    private readonly uow: UnitOfWork,
  ) {}

  activate(userId: number, id: number): Promise<Result<Assistant, ActivationFailure>> {
    return this.uow.transaction(
      async (): Promise<Result<Assistant, ActivationFailure>> => {
        const activated = await this.assistants.update(userId, id, async (assistant) => {
          const decision = activate(assistant);
          if (!decision.ok) return err(decision.error);
          return ok(statusChange(assistant, decision.value));
        });
        return activated.ok ? activated : err(settledRefusal(activated.error));
      },
      { concludes: true },
    );
  }

  deactivate(userId: number, id: number): Promise<Result<Assistant, NotFound>> {
    return this.uow.transaction(
      async (): Promise<Result<Assistant, NotFound>> => {
        const deactivated = await this.assistants.update<never>(userId, id, async (assistant) =>
          ok(statusChange(assistant, 'inactive')),
        );
        return deactivated.ok ? deactivated : err(settledRefusal(deactivated.error));
      },
      { concludes: true },
    );
  }
}

const statusChange = (assistant: Assistant, status: AssistantStatus): AssistantChange => ({
  write: assistant.status === status ? null : { kind: 'status', status },
});

/** Only a configuration write can find its inbound number taken; a status or webhook write never does. */
function settledRefusal<E>(error: E | InboundNumberTaken): E {
  if (error === 'inbound_number_taken')
    throw new Error('An assistant write without a number change found its number taken.');
  return error;
}

/**
 * The webhook switches: the post-call webhook (disabling cancels pending deliveries through the outbox),
 * and the addresses for inbound calls and for ended chat conversations. Each concludes in the commit of its change.
 */
export class AssistantWebhooks {
  constructor(
    private readonly assistants: AssistantRepository,
    private readonly targetPolicy: TargetUrlPolicy,
    private readonly uow: UnitOfWork,
  ) {}

  disable(userId: number, assistantId: number): Promise<Result<void, NotFound>> {
    return this.uow.transaction(
      async (): Promise<Result<void, NotFound>> => {
        const disabled = await this.assistants.update<never>(userId, assistantId, async (assistant) => {
          const transition = disableWebhook(assistant);
          const changed = assistant.isWebhookActive || assistant.webhookUrl !== null;
          return ok({
            write: changed ? { kind: 'webhook' as const, webhook: transition.state } : null,
            events: transition.events.map(toOutboxEvent),
          });
        });
        return disabled.ok ? ok(undefined) : err(settledRefusal(disabled.error));
      },
      { concludes: true },
    );
  }

  /** The URL is checked before the assistant is looked up: a bad body is a 422 whoever owns the id. */
  async enable(userId: number, assistantId: number, url: string): Promise<Result<void, WebhookSwitchRefusal>> {
    if (!checkTargetUrl(url, this.targetPolicy).ok) return err({ code: 'blocked_url' as const });
    return this.uow.transaction(
      async (): Promise<Result<void, WebhookSwitchRefusal>> => {
        const enabled = await this.assistants.update<never>(userId, assistantId, async () =>
          ok({ write: { kind: 'webhook' as const, webhook: enableWebhook(url) } }),
        );
        return enabled.ok ? ok(undefined) : err(settledRefusal(enabled.error));
      },
      { concludes: true },
    );
  }

  /** Sets (a URL, checked first like `enable`) or clears (null) the inbound or conversation-ended address. Idempotent. */
  async setUrl(
    userId: number,
    assistantId: number,
    target: WebhookTarget,
    url: string | null,
  ): Promise<Result<void, WebhookSwitchRefusal>> {
    if (url !== null && !checkTargetUrl(url, this.targetPolicy).ok) return err({ code: 'blocked_url' as const });
    return this.uow.transaction(
      async (): Promise<Result<void, WebhookSwitchRefusal>> => {
        const set = await this.assistants.update<never>(userId, assistantId, async (assistant) => {
          const current = target === 'inbound' ? assistant.inboundWebhookUrl : assistant.conversationEndedWebhookUrl;
          const events = webhookUrlEvents(assistant, target, url).map(toOutboxEvent);
          return ok({ write: current === url ? null : { kind: 'webhook_url' as const, target, url }, events });
        });
        return set.ok ? ok(undefined) : err(settledRefusal(set.error));
      },
      { concludes: true },
    );
  }
}

/**
 * Deleting frees the phone number and detaches tools and labels (foreign keys); everything that
 * lives elsewhere (deliveries, senders, automations) reacts to `assistant.deleted`.
 */
export class DeleteAssistant {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly assistants: AssistantRepository,
    private readonly outbox: Outbox,
  ) {}

  execute(userId: number, id: number): Promise<boolean> {
    return this.uow.transaction(async () => {
      if (!(await this.assistants.delete(userId, id))) return false;
      await this.outbox.add([toOutboxEvent(assistantDeleted({ id, userId }))]);
      return true;
    });
  }
}
