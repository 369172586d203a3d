import {
  activate, ActivationRefusal, assistantDeleted, checkTargetUrl, disableWebhook, enableWebhook, err, ok,
  Result, TargetUrlPolicy,
} from '@voiceplane/domain';
import { UnitOfWork } from '../ports/unit-of-work';
import { Outbox } from '../ports/outbox';
import { Assistant, AssistantRepository } from './ports';
import { toOutboxEvent } from './events';

type NotFound = { readonly code: 'not_found' };
export type ActivationFailure = NotFound | ActivationRefusal;
/** Enabling refuses a URL outside the outbound policy (CONTRACT §1.11). */
export type WebhookSwitchRefusal = NotFound | { readonly code: 'blocked_url' };
const notFound = () => err({ code: 'not_found' as const });

/** `status` changes (CONTRACT §3.8); both directions are idempotent. */
export class ChangeAssistantStatus {
  constructor(private readonly uow: UnitOfWork, private readonly assistants: AssistantRepository) {}

  activate(userId: number, id: number): Promise<Result<Assistant, ActivationFailure>> {
    return this.uow.transaction(async () => {
      const assistant = await this.assistants.findOwned(userId, id, { lock: true });
      if (!assistant) return notFound();
      const decision = activate(assistant);
      if (!decision.ok) return err(decision.error);
      return ok(assistant.status === decision.value ? assistant : await this.assistants.setStatus(assistant.id, decision.value));
    });
  }

  deactivate(userId: number, id: number): Promise<Result<Assistant, NotFound>> {
    return this.uow.transaction(async () => {
      const assistant = await this.assistants.findOwned(userId, id, { lock: true });
      if (!assistant) return notFound();
      return ok(assistant.status === 'inactive' ? assistant : await this.assistants.setStatus(assistant.id, 'inactive'));
    });
  }
}

/** The post-call webhook switch (CONTRACT §3.11); disabling cancels pending deliveries through the outbox. */
export class AssistantWebhooks {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly assistants: AssistantRepository,
    private readonly outbox: Outbox,
    private readonly targetPolicy: TargetUrlPolicy,
  ) {}

  disable(userId: number, assistantId: number): Promise<Result<void, NotFound>> {
    return this.uow.transaction(async () => {
      const assistant = await this.assistants.findOwned(userId, assistantId, { lock: true });
      if (!assistant) return notFound();
      const transition = disableWebhook(assistant);
      if (assistant.is_webhook_active || assistant.webhook_url !== null) await this.assistants.setWebhook(assistant.id, transition.state);
      await this.outbox.add(transition.events.map(toOutboxEvent));
      return ok(undefined);
    });
  }

  /** The URL is checked before the assistant is looked up: a bad body is a 422 whoever owns the id. */
  async enable(userId: number, assistantId: number, url: string): Promise<Result<void, WebhookSwitchRefusal>> {
    if (!checkTargetUrl(url, this.targetPolicy).ok) return err({ code: 'blocked_url' as const });
    return this.uow.transaction(async () => {
      const assistant = await this.assistants.findOwned(userId, assistantId, { lock: true });
      if (!assistant) return notFound();
      await this.assistants.setWebhook(assistant.id, enableWebhook(url));
      return ok(undefined);
    });
  }
}

/**
 * Deleting frees the phone number and detaches tools and labels (foreign keys); everything that
 * lives elsewhere (deliveries, senders, automations) reacts to `assistant.deleted`.
 */
export class DeleteAssistant {
  constructor(private readonly uow: UnitOfWork, private readonly assistants: AssistantRepository, private readonly outbox: Outbox) {}

  execute(userId: number, id: number): Promise<boolean> {
    return this.uow.transaction(async () => {
      if (!(await this.assistants.delete(userId, id))) return false;
      await this.outbox.add([toOutboxEvent(assistantDeleted({ id, user_id: userId }))]);
      return true;
    });
  }
}
