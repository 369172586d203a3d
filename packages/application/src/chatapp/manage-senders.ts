import { err, MessageTemplate, ok, Result, Sender } from '@voiceplane/domain';
import { AssistantRepository } from '../assistants';
import { CreateTemplate, CreateTemplateRefusal, TemplateDraft } from './create-template';
import { SenderChanges, SenderListFilter, SenderRepository, TemplateListFilter, TemplateRepository } from './ports';
import { ChatappProvider, WhatsappCredentials } from './provider-ports';
import { RegisterSender, RegisterSenderRefusal, SenderRegistration } from './register-sender';
import { UpdateSender } from './update-sender';

/** The steps that change senders and templates, each owning its own rules. */
export interface SenderSteps {
  readonly register: RegisterSender;
  readonly update: UpdateSender;
  readonly createTemplate: CreateTemplate;
}

/** The assistant a sender is given is not the caller's. */
export type AssistantInvalid = { readonly code: 'assistant_invalid' };
export type SenderRegistrationRefusal = RegisterSenderRefusal | AssistantInvalid;
export type SenderRefusal = 'sender_not_found' | 'assistant_invalid';

/**
 * An account's chat-app senders and their templates: another account's sender is `sender_not_found`
 * and another account's assistant `assistant_invalid`. What a request carries past the sender's id
 * comes as a function, read only once the sender is known to be the caller's, so a stranger's id
 * is not found whatever was sent with it.
 */
export class ManageSenders {
  constructor(
    private readonly senders: SenderRepository,
    private readonly templates: TemplateRepository,
    private readonly assistants: Pick<AssistantRepository, 'findOwned'>,
    private readonly steps: SenderSteps,
    private readonly provider: ChatappProvider,
  ) {}

  /** Id ascending. */
  list(userId: number, filter: SenderListFilter): Promise<Sender[]> {
    return this.senders.list(userId, filter);
  }

  async get(userId: number, id: number): Promise<Result<Sender, 'sender_not_found'>> {
    const sender = await this.senders.findOwned(userId, id);
    return sender === null ? err('sender_not_found') : ok(sender);
  }

  /**
   * The assistant is checked before the credentials are read; only a WhatsApp sender needs its
   * Cloud API credentials (the sandbox ignores them, unread).
   */
  async register(
    registration: Omit<SenderRegistration, 'credentials'>,
    credentialsOf: () => WhatsappCredentials,
  ): Promise<Result<Sender, SenderRegistrationRefusal>> {
    if (!(await this.assistantIsOwned(registration.userId, registration.assistantId)))
      return err({ code: 'assistant_invalid' });
    const credentials = this.provider.name === 'whatsapp' ? credentialsOf() : null;
    return this.steps.register.execute({ ...registration, credentials });
  }

  async update(userId: number, id: number, changesOf: () => SenderChanges): Promise<Result<Sender, SenderRefusal>> {
    if ((await this.senders.findOwned(userId, id)) === null) return err('sender_not_found');
    const changes = changesOf();
    if (!(await this.assistantIsOwned(userId, changes.assistantId))) return err('assistant_invalid');
    const updated = await this.steps.update.execute(userId, id, changes);
    return updated === null ? err('sender_not_found') : ok(updated);
  }

  /** Id ascending. */
  async templatesOf(
    userId: number,
    senderId: number,
    filterOf: () => TemplateListFilter,
  ): Promise<Result<MessageTemplate[], 'sender_not_found'>> {
    const sender = await this.senders.findOwned(userId, senderId);
    if (sender === null) return err('sender_not_found');
    return ok(await this.templates.list(sender.id, filterOf()));
  }

  async createTemplate(
    userId: number,
    senderId: number,
    draftOf: () => Omit<TemplateDraft, 'userId' | 'senderId'>,
  ): Promise<Result<MessageTemplate, CreateTemplateRefusal>> {
    if ((await this.senders.findOwned(userId, senderId)) === null) return err({ code: 'sender_not_found' });
    return this.steps.createTemplate.execute({ ...draftOf(), userId, senderId });
  }

  /** No assistant (absent or cleared) is always allowed. */
  private async assistantIsOwned(userId: number, assistantId: number | null | undefined): Promise<boolean> {
    if (assistantId === undefined || assistantId === null) return true;
    return (await this.assistants.findOwned(userId, assistantId)) !== null;
  }
}
