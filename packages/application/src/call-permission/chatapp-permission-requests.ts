import { err, ok, Result } from '@voiceplane/domain';
import { OutboundSends } from '../chatapp';
import { ChatappProvider } from '../chatapp';
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
    const sent = await this.outbound.send<never>({
      sender: r.sender,
      recipientPhone: r.customerPhone,
      recipientName: r.recipientName,
      source: 'api',
      type: 'voice_call_request',
      body: r.template.bodyText,
      media: null,
      templateId: r.template.id,
      createConversation: true,
      decide: () => ok({ source: 'balance', amount: 0 }),
      deliver: (providerSender, reference) =>
        this.provider.sendTemplate(
          providerSender,
          r.customerPhone,
          {
            name: r.template.name,
            language: r.template.language,
            parameters: [],
            renderedText: r.template.bodyText,
          },
          reference,
        ),
      description: 'Call permission request',
      requestId: r.requestId,
      outcome: r.outcome,
    });
    return sent.ok
      ? ok({ conversationUuid: sent.value.conversation.uuid })
      : err({ code: 'send_failed', reason: sent.error.reason });
  }
}
