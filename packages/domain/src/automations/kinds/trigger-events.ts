import { deepMerge, JsonObject } from '../json';
import type { TriggerEvent } from '../step-kinds';

/** What a `call.ended` automation is handed: the call as the call-ended event carries it, for the bound assistant. */
function callEndedSample(assistantId: number): JsonObject {
  return {
    event: 'call.ended',
    assistant_id: assistantId,
    call: {
      id: 0,
      assistant_id: assistantId,
      customer_phone: '+15555550100',
      assistant_phone: null,
      duration: 42,
      status: 'completed',
      extracted_variables: { status: true, summary: 'Customer asked for a follow-up.', customer_name: 'Test Customer' },
      input_variables: {},
      transcript: 'AI: Hello!\nCustomer: Hi, please send me the details.',
      created_at: '2026-03-01T10:00:00.000Z',
      finished_at: '2026-03-01T10:00:42.000Z',
      lead: null,
      campaign: null,
    },
  };
}

/** What a `conversation.ended` automation is handed: a conversation as the conversation-ended webhook carries it. */
function conversationEndedSample(assistantId: number): JsonObject {
  return {
    event: 'conversation.ended',
    assistant_id: assistantId,
    conversation: {
      id: 0,
      conversation_id: '00000000-0000-4000-8000-000000000000',
      assistant_id: assistantId,
      type: 'chatapp',
      message_count: 2,
      status: 'ended',
      extracted_variables: { status: true, summary: 'Asked about delivery times.' },
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
      ],
      formatted_transcript: 'Customer: Hi, where is my order?\nAI: It ships tomorrow.',
      attachments: [],
      customer_phone: '+15555550100',
      customer_name: 'Test Customer',
      sender: { phone_number: '+15555550199', display_name: 'Test Sender' },
      created_at: '2026-03-01T09:30:00.000Z',
      ended_at: '2026-03-01T10:30:00.000Z',
    },
  };
}

/**
 * Each assistant event an automation can start on, with the test input it is tried with: a
 * template on that event tests with this sample unless it changes it (`eventSample`).
 */
const TRIGGER_EVENT_SAMPLES: { readonly [E in TriggerEvent]: (assistantId: number) => JsonObject } = {
  'call.ended': callEndedSample,
  'conversation.ended': conversationEndedSample,
};

/** The event's sample for the bound assistant with `changes` merged over it (`{ call: { status: 'no-answer' } }`). */
export function eventSample(event: TriggerEvent, assistantId: number, changes: JsonObject = {}): JsonObject {
  return deepMerge(TRIGGER_EVENT_SAMPLES[event](assistantId), changes);
}
