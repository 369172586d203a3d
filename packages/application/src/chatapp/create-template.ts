import {
  err,
  MessageTemplate,
  ok,
  parseTemplatePlaceholders,
  PlaceholderRefusal,
  Result,
  TemplateCategory,
} from '@voiceplane/domain';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { ProviderSenders } from './provider-senders';
import { SenderRepository, TemplateRepository } from './ports';
import { ChatappProvider, ChatappProviderRefusal } from './provider-ports';

export interface TemplateDraft {
  readonly userId: number;
  readonly senderId: number;
  readonly name: string;
  readonly language: string;
  readonly category: TemplateCategory;
  readonly bodyText: string;
  readonly footerText: string | null;
}

export type CreateTemplateRefusal =
  | { readonly code: 'sender_not_found' }
  | { readonly code: 'template_exists' }
  | PlaceholderRefusal
  | { readonly code: 'send_failed'; readonly reason: string };

/**
 * `POST /api/user/chatapp/senders/{id}/templates`: placeholders are checked, the provider gets the
 * template for approval (the sandbox approves at once), and it is stored with the status it answered.
 * The store concludes the use case: an idempotent answer is kept with the provider's answer, so a
 * retry after a crash is replayed without submitting again.
 */
export class CreateTemplate {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly senders: SenderRepository,
    private readonly templates: TemplateRepository,
    private readonly providerSenders: ProviderSenders,
    private readonly provider: ChatappProvider,
    private readonly clock: Clock,
  ) {}

  async execute(d: TemplateDraft): Promise<Result<MessageTemplate, CreateTemplateRefusal>> {
    const sender = await this.senders.findOwned(d.userId, d.senderId);
    if (sender === null) return err({ code: 'sender_not_found' });
    const placeholders = parseTemplatePlaceholders(d.bodyText);
    if (!placeholders.ok) return placeholders;
    const existing = await this.templates.list(sender.id, 'all');
    if (existing.some((t) => t.name === d.name && t.language === d.language)) return err({ code: 'template_exists' });
    let submitted;
    try {
      submitted = await this.provider.submitTemplate(await this.providerSenders.of(sender), {
        name: d.name,
        language: d.language,
        category: d.category,
        bodyText: d.bodyText,
        footerText: d.footerText,
      });
    } catch (e) {
      return err({
        code: 'send_failed',
        reason: e instanceof ChatappProviderRefusal ? e.reason : 'the chat app could not be reached',
      });
    }
    const outcome = (created: MessageTemplate | null): Result<MessageTemplate, CreateTemplateRefusal> =>
      created === null ? err({ code: 'template_exists' }) : ok(created);
    const created = await this.uow.transaction(
      () =>
        this.templates.create({
          senderId: sender.id,
          name: d.name,
          language: d.language,
          category: d.category,
          status: submitted.status,
          bodyText: d.bodyText,
          footerText: d.footerText,
          variables: placeholders.value.variables,
          providerTemplateRef: submitted.providerTemplateRef,
          now: this.clock.now(),
        }),
      { concludes: outcome },
    );
    return outcome(created);
  }
}
