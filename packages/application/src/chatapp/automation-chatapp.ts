import { err, JsonObject, ok, Result, TemplateVariableInput } from '@voiceplane/domain';
import { AutomationChatapp, ChatappSendOk, ChatappSendRefusal, ChatappTemplateChoice } from '../automations';
import { SenderRepository, TemplateRepository } from './ports';
import { SendTemplateMessage, TemplateMessageRefusal } from './send-template-message';

/**
 * What a refused send tells the run's step (`CODE: detail`). The detail is stored with the run and
 * shown by its detail route later, so it keeps the upper-case wire code and its wording here,
 * where the record is written, rather than borrowing the HTTP layer's answer.
 */
function refusalDetail(refusal: TemplateMessageRefusal): string {
  switch (refusal.code) {
    case 'sender_offline':
      return `SENDER_OFFLINE: Sender is not online. Current status: ${refusal.senderStatus}`;
    case 'template_not_approved':
      return `TEMPLATE_NOT_APPROVED: the template is ${refusal.templateStatus}`;
    case 'template_variables_missing':
      return `TEMPLATE_VARIABLES_MISSING: ${refusal.missing.join(', ')}`;
    case 'insufficient_balance':
      return 'INSUFFICIENT_BALANCE: the balance does not cover the message';
    case 'send_failed':
      return `SEND_FAILED: ${refusal.reason}`;
    default:
      return refusal.code.toUpperCase();
  }
}

/** Scalars only: a template variable is text; objects and arrays in the run's data are not sent. */
function templateVariables(variables: JsonObject): Record<string, TemplateVariableInput> {
  return Object.fromEntries(Object.entries(variables).filter(([, v]) => v === null || typeof v !== 'object')) as Record<
    string,
    TemplateVariableInput
  >;
}

/** The chat-app capability as the automations' `chatapp.send_template` step and the apply checks see it. */
export class ChatappForAutomations implements AutomationChatapp {
  constructor(
    private readonly senders: SenderRepository,
    private readonly templates: TemplateRepository,
    private readonly sendTemplateMessage: SendTemplateMessage,
  ) {}

  async sendTemplate(
    request: Parameters<AutomationChatapp['sendTemplate']>[0],
  ): Promise<Result<ChatappSendOk, ChatappSendRefusal>> {
    const sent = await this.sendTemplateMessage.execute({
      userId: request.userId,
      senderId: request.senderId,
      templateId: request.templateId,
      recipientPhone: request.recipientPhone,
      recipientName: null,
      variables: templateVariables(request.variables),
      source: 'automation',
    });
    if (!sent.ok) {
      const gone = sent.error.code === 'sender_not_found' || sent.error.code === 'template_not_found';
      return err({ code: gone ? 'record_gone' : 'refused', detail: refusalDetail(sent.error) });
    }
    const { chatapp, conversation } = sent.value;
    return ok({
      messageSid: chatapp.messageSid,
      chatappMessageId: chatapp.id,
      conversationId: conversation.id,
      status: chatapp.status,
    });
  }

  async approvedTemplates(userId: number, senderId: number): Promise<readonly ChatappTemplateChoice[] | null> {
    const sender = await this.senders.findOwned(userId, senderId);
    if (sender === null) return null;
    return (await this.templates.list(sender.id, 'approved')).map((t) => ({
      templateId: t.id,
      label: `${t.name} (${t.language})`,
      variables: t.variables,
    }));
  }

  async senderChoices(userId: number): Promise<readonly { readonly value: string; readonly label: string }[]> {
    return (await this.senders.list(userId, 'all')).map((s) => ({
      value: String(s.id),
      label: `${s.displayName} (${s.phoneNumber})`,
    }));
  }
}
