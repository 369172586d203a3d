import { assistantDeleted, disableWebhook, enableWebhook, webhookEventsOf, WebhookSubject } from './webhook';

const subject = (over: Partial<WebhookSubject> = {}): WebhookSubject => ({
  id: 101, user_id: 1, is_webhook_active: true, webhook_url: 'https://hooks.example.com/calls', conversation_ended_webhook_url: null, ...over,
});
const disabled = { name: 'assistant.webhook_disabled', assistant_id: 101, user_id: 1 };
const cleared = { name: 'assistant.conversation_ended_webhook_cleared', assistant_id: 101, user_id: 1 };

describe('assistant webhook state machine', () => {
  it.each([
    ['active → inactive raises webhook_disabled', subject(), [disabled]],
    ['inactive stays inactive, raises nothing (idempotent)', subject({ is_webhook_active: false, webhook_url: null }), []],
    ['an inactive webhook with a kept URL loses the URL, raises nothing', subject({ is_webhook_active: false }), []],
  ])('disable: %s', (_, before, events) => {
    expect(disableWebhook(before)).toEqual({ state: { is_webhook_active: false, webhook_url: null }, events });
  });

  it('enable stores the URL and activates', () => {
    expect(enableWebhook('https://hooks.example.com/new')).toEqual({ is_webhook_active: true, webhook_url: 'https://hooks.example.com/new' });
  });

  it.each([
    ['deactivation', subject(), { is_webhook_active: false, webhook_url: null, conversation_ended_webhook_url: null }, [disabled]],
    ['deactivation keeping the URL', subject(), { is_webhook_active: false, webhook_url: 'https://hooks.example.com/calls', conversation_ended_webhook_url: null }, [disabled]],
    ['a URL change while active', subject(), { is_webhook_active: true, webhook_url: 'https://hooks.example.com/v2', conversation_ended_webhook_url: null }, []],
    ['activation', subject({ is_webhook_active: false }), { is_webhook_active: true, webhook_url: 'https://hooks.example.com/calls', conversation_ended_webhook_url: null }, []],
    ['clearing the conversation-ended URL', subject({ conversation_ended_webhook_url: 'https://hooks.example.com/conv' }), { is_webhook_active: true, webhook_url: 'https://hooks.example.com/calls', conversation_ended_webhook_url: null }, [cleared]],
    ['both at once', subject({ conversation_ended_webhook_url: 'https://hooks.example.com/conv' }), { is_webhook_active: false, webhook_url: null, conversation_ended_webhook_url: null }, [disabled, cleared]],
    ['a conversation-ended URL that was never set', subject(), { is_webhook_active: true, webhook_url: 'https://hooks.example.com/calls', conversation_ended_webhook_url: null }, []],
  ])('update events: %s', (_, before, after, events) => {
    expect(webhookEventsOf(before, after)).toEqual(events);
  });

  it('names the deleted assistant and its owner', () => {
    expect(assistantDeleted({ id: 7, user_id: 3 })).toEqual({ name: 'assistant.deleted', assistant_id: 7, user_id: 3 });
  });
});
