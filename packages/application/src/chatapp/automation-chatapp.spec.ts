import { err } from '@voiceplane/domain';
import { ChatappForAutomations } from './automation-chatapp';
import { SenderRepository, TemplateRepository } from './ports';
import { SendTemplateMessage } from './send-template-message';

describe('ChatappForAutomations', () => {
  it('reports an offline sender with the catalogue text, its status interpolated', async () => {
    const refusing = {
      execute: async () => err({ code: 'sender_offline' as const, senderStatus: 'offline' as const }),
    } as unknown as SendTemplateMessage;
    const chatapp = new ChatappForAutomations({} as SenderRepository, {} as TemplateRepository, refusing);
    const sent = await chatapp.sendTemplate({
      userId: 1,
      senderId: 2,
      templateId: 3,
      recipientPhone: '+14155551234',
      variables: {},
    });
    expect(sent).toEqual(
      err({ code: 'refused', detail: 'SENDER_OFFLINE: Sender is not online. Current status: offline' }),
    );
  });
});
