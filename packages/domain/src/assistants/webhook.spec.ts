import { assistantDeleted, disableWebhook, enableWebhook, webhookEventsOf, WebhookSubject } from './webhook';

const subject = (over: Partial<WebhookSubject> = {}): WebhookSubject => ({
  id: 101,
  userId: 1,
  isWebhookActive: true,
  webhookUrl: 'https://hooks.example.com/calls',
  conversationEndedWebhookUrl: null,
  ...over,
});
const disabled = { name: 'assistant.webhook_disabled', assistantId: 101, userId: 1 };
const cleared = { name: 'assistant.conversation_ended_webhook_cleared', assistantId: 101, userId: 1 };

describe('assistant webhook state machine', () => {
  it.each([
    ['active → inactive raises webhook_disabled', subject(), [disabled]],
    ['inactive stays inactive, raises nothing (idempotent)', subject({ isWebhookActive: false, webhookUrl: null }), []],
    ['an inactive webhook with a kept URL loses the URL, raises nothing', subject({ isWebhookActive: false }), []],
  ])('disable: %s', (_, before, events) => {
    expect(disableWebhook(before)).toEqual({ state: { isWebhookActive: false, webhookUrl: null }, events });
  });

  it('enable stores the URL and activates', () => {
    expect(enableWebhook('https://hooks.example.com/new')).toEqual({
      isWebhookActive: true,
      webhookUrl: 'https://hooks.example.com/new',
    });
  });

  it.each([
    [
      'deactivation',
      subject(),
      { isWebhookActive: false, webhookUrl: null, conversationEndedWebhookUrl: null },
      [disabled],
    ],
    [
      'deactivation keeping the URL',
      subject(),
      { isWebhookActive: false, webhookUrl: 'https://hooks.example.com/calls', conversationEndedWebhookUrl: null },
      [disabled],
    ],
    [
      'a URL change while active',
      subject(),
      { isWebhookActive: true, webhookUrl: 'https://hooks.example.com/v2', conversationEndedWebhookUrl: null },
      [],
    ],
    [
      'activation',
      subject({ isWebhookActive: false }),
      { isWebhookActive: true, webhookUrl: 'https://hooks.example.com/calls', conversationEndedWebhookUrl: null },
      [],
    ],
    [
      'clearing the conversation-ended URL',
      subject({ conversationEndedWebhookUrl: 'https://hooks.example.com/conv' }),
      { isWebhookActive: true, webhookUrl: 'https://hooks.example.com/calls', conversationEndedWebhookUrl: null },
      [cleared],
    ],
    [
      'both at once',
      subject({ conversationEndedWebhookUrl: 'https://hooks.example.com/conv' }),
      { isWebhookActive: false, webhookUrl: null, conversationEndedWebhookUrl: null },
      [disabled, cleared],
    ],
    [
      'a conversation-ended URL that was never set',
      subject(),
      { isWebhookActive: true, webhookUrl: 'https://hooks.example.com/calls', conversationEndedWebhookUrl: null },
      [],
    ],
  ])('update events: %s', (_, before, after, events) => {
    expect(webhookEventsOf(before, after)).toEqual(events);
  });

  it('names the deleted assistant and its owner', () => {
    expect(assistantDeleted({ id: 7, userId: 3 })).toEqual({ name: 'assistant.deleted', assistantId: 7, userId: 3 });
  });
});
