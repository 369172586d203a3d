import {
  ChatappPrices,
  decideTemplateSend,
  ok,
  resolveTemplateVariables,
  Result,
  TemplateSendRefusal,
  TemplateVariableInput,
} from '@voiceplane/domain';
import { UserRepository } from '../ports';
import { Clock } from '../ports';
import { OutboundSends, SendFailed, SentMessage } from './outbound-send';
import { SenderRepository, TemplateRepository } from './ports';
import { ChatappProvider, ProviderAcceptance } from './provider-ports';

export interface TemplateSendRequest {
  readonly userId: number;
  readonly senderId: number;
  readonly templateId: number;
  readonly recipientPhone: string;
  readonly recipientName: string | null;
  readonly variables: Readonly<Record<string, TemplateVariableInput>>;
  /** `api` for the route, `automation` for the `chatapp.send_template` step. */
  readonly source: 'api' | 'automation';
  readonly requestId?: string | null;
}

export type TemplateMessageRefusal = TemplateSendRefusal | SendFailed;

/** Where the sender, the template and the paying user are read. */
export interface SendTemplateMessageRecords {
  readonly senders: SenderRepository;
  readonly templates: TemplateRepository;
  readonly users: UserRepository;
}

/** How the message is priced and sent. */
export interface SendTemplateMessageSending {
  readonly outbound: OutboundSends;
  readonly provider: ChatappProvider;
  readonly prices: ChatappPrices;
}

/**
 * `POST /api/user/chatapp/send` and the automations' template step: every check of the send
 * in its order, then the send (allowance first, then the template price).
 */
export class SendTemplateMessage {
  private readonly senders: SenderRepository;
  private readonly templates: TemplateRepository;
  private readonly users: UserRepository;
  private readonly outbound: OutboundSends;
  private readonly provider: ChatappProvider;
  private readonly prices: ChatappPrices;

  constructor(
    records: SendTemplateMessageRecords,
    sending: SendTemplateMessageSending,
    private readonly clock: Clock,
  ) {
    ({ senders: this.senders, templates: this.templates, users: this.users } = records);
    ({ outbound: this.outbound, provider: this.provider, prices: this.prices } = sending);
  }

  async execute(request: TemplateSendRequest): Promise<Result<SentMessage, TemplateMessageRefusal>> {
    const sender = await this.senders.findOwned(request.userId, request.senderId);
    const template = sender === null ? null : await this.templates.findForSender(sender.id, request.templateId);
    const user = await this.users.findById(request.userId);
    const included = user?.plan.included_template_messages ?? 0;
    const decided = decideTemplateSend({
      sender,
      template,
      recipientPhone: request.recipientPhone,
      variables: request.variables,
      allowanceRemaining: await this.outbound.allowanceRemaining(request.userId, included, this.clock.now()),
      balance: user?.balance ?? 0,
      prices: this.prices,
    });
    if (!decided.ok) return decided;
    // Checked complete by the decision above.
    const parameters = resolveTemplateVariables(template!.variables, request.variables);
    if (!parameters.ok) return parameters;
    const body = decided.value.body;
    const held = await this.outbound.reserve({
      sender: sender!,
      recipientPhone: request.recipientPhone,
      recipientName: request.recipientName,
      source: request.source,
      type: 'template',
      body,
      media: null,
      templateId: template!.id,
      createConversation: true,
      rule: { kind: 'template', prices: this.prices },
      description: 'Template message',
      requestId: request.requestId,
    });
    if (!held.ok) return held;
    const { providerSender, reservation } = held.value;
    const content = {
      name: template!.name,
      language: template!.language,
      parameters: parameters.value,
      renderedText: body,
    };
    let acceptance: ProviderAcceptance;
    try {
      acceptance = await this.provider.sendTemplate(
        providerSender,
        request.recipientPhone,
        content,
        reservation.messageSid,
      );
    } catch (e) {
      return this.outbound.release(held.value, e);
    }
    return ok(await this.outbound.settle(held.value, acceptance, true));
  }
}
