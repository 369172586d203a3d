import { newConversation } from './conversation';
import { conversationEndedPayload } from './ended-payload';
import { ConversationMessage } from './message';

const at = (iso: string) => new Date(iso);
const message = (id: number, over: Partial<ConversationMessage>): ConversationMessage => ({
  id,
  conversationId: 880,
  direction: 'inbound',
  source: 'customer',
  type: 'text',
  body: null,
  mediaUrl: null,
  mediaType: null,
  filename: null,
  templateId: null,
  chatappMessageId: null,
  messageSid: null,
  status: 'received',
  errorCode: null,
  createdAt: at('2026-03-01T10:00:00.000Z'),
  ...over,
});

describe('conversation_ended payload', () => {
  it('lists the transcript with roles, media placeholders and attachments', () => {
    const conversation = {
      ...newConversation(
        { id: 880, uuid: 'u-1', userId: 1, senderId: 12, customerPhone: '+14155551234' },
        at('2026-02-27T08:00:00.000Z'),
      ),
      assistantId: 101,
      customerName: 'Ann',
      status: 'ended' as const,
      messageCount: 3,
      endedAt: at('2026-03-01T10:46:00.000Z'),
    };
    const payload = conversationEndedPayload({
      conversation,
      messages: [
        message(1, { body: 'Hi, where is my order?' }),
        message(2, {
          direction: 'outbound',
          source: 'ai',
          body: 'It ships tomorrow.',
          createdAt: at('2026-03-01T10:00:04.000Z'),
        }),
        message(3, {
          type: 'media',
          mediaType: 'image',
          mediaUrl: 'https://m.example/5535.jpg',
          createdAt: at('2026-03-01T10:00:05.000Z'),
        }),
      ],
      sender: { phoneNumber: '+4915112345678', displayName: 'Acme Support' },
      extractedVariables: { status: true },
      inputVariables: {},
    });
    expect(payload).toEqual({
      id: 880,
      conversation_id: 'u-1',
      assistant_id: 101,
      type: 'chatapp',
      message_count: 3,
      status: 'ended',
      extracted_variables: { status: true },
      input_variables: {},
      transcript: [
        {
          role: 'user',
          content: 'Hi, where is my order?',
          timestamp: '2026-03-01T10:00:00.000Z',
          timestamp_unix: 1772359200,
        },
        {
          role: 'assistant',
          content: 'It ships tomorrow.',
          timestamp: '2026-03-01T10:00:04.000Z',
          timestamp_unix: 1772359204,
        },
        { role: 'user', content: '[Image]', timestamp: '2026-03-01T10:00:05.000Z', timestamp_unix: 1772359205 },
      ],
      formatted_transcript: 'Customer: Hi, where is my order?\nAI: It ships tomorrow.\nCustomer: [Image]',
      attachments: [{ type: 'image', url: 'https://m.example/5535.jpg', filename: null }],
      customer_phone: '+14155551234',
      customer_name: 'Ann',
      sender: { phone_number: '+4915112345678', display_name: 'Acme Support' },
      created_at: '2026-02-27T08:00:00.000Z',
      ended_at: '2026-03-01T10:46:00.000Z',
    });
  });
});
