import { err, ok, Result } from '@voiceplane/domain';
import { OutboundSends } from '../chatapp';
import { ChatappProvider, ProviderAcceptance } from '../chatapp';
import { PermissionRequestSender, RequestSendFailed } from './ports';

/**
 * The request template goes out like any outbound chat-app message (reserved, sent with no
 * transaction open, then recorded), as a free `voice_call_request` message.
 */
export class ChatappPermissionRequests implements PermissionRequestSender {
  constructor(
    private readonly outbound: OutboundSends,
    private readonly provider: ChatappProvider,
  ) {}

  async send(
    r: Parameters<PermissionRequestSender['send']>[0],
  ): Promise<Result<{ readonly conversationUuid: string }, RequestSendFailed>> {
    const held = await this.outbound.reserve({
      sender: r.sender,
      recipientPhone: r.customerPhone,
      recipientName: r.recipientName,
      source: 'api',
      type: 'voice_call_request',
      body: r.template.bodyText,
      media: null,
      templateId: r.template.id,
      createConversation: true,
      rule: { kind: 'free' },
      description: 'Call permission request',
      requestId: r.requestId,
    });
    // A free send is never refused.
    if (!held.ok) return held;
    const { providerSender, reservation } = held.value;
    const content = {
      name: r.template.name,
      language: r.template.language,
      parameters: [],
      renderedText: r.template.bodyText,
    };
    let acceptance: ProviderAcceptance;
    try {
      acceptance = await this.provider.sendTemplate(providerSender, r.customerPhone, content, reservation.messageSid);
    } catch (e) {
      const failed = await this.outbound.release(held.value, e);
      return err({ code: 'send_failed', reason: failed.error.reason });
    }
    // The request's use case concludes with the charge: its answer is the permission it reads there.
    const sent = await this.outbound.settle(held.value, acceptance, r.outcome ?? false);
    return ok({ conversationUuid: sent.conversation.uuid });
  }
}
