import { isJsonObject, JsonObject, JsonValue } from './json';

/** The templates' standard `call.ended` test input, for the bound assistant. */
export function standardCallSample(assistantId: number): JsonObject {
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

/** The `conversation.ended` test input: a conversation as the conversation-ended webhook carries it. */
export function standardConversationSample(assistantId: number): JsonObject {
  return {
    event: 'conversation.ended',
    assistant_id: assistantId,
    conversation: {
      id: 0, conversation_id: '00000000-0000-4000-8000-000000000000', assistant_id: assistantId, type: 'chatapp', message_count: 2, status: 'ended',
      extracted_variables: { status: true, summary: 'Asked about delivery times.' },
      input_variables: {},
      transcript: [
        { role: 'user', content: 'Hi, where is my order?', timestamp: '2026-03-01T10:00:00.000Z', timestamp_unix: 1772359200 },
        { role: 'assistant', content: 'It ships tomorrow.', timestamp: '2026-03-01T10:00:04.000Z', timestamp_unix: 1772359204 },
      ],
      formatted_transcript: 'Customer: Hi, where is my order?\nAI: It ships tomorrow.',
      attachments: [],
      customer_phone: '+15555550100', customer_name: 'Test Customer',
      sender: { phone_number: '+15555550199', display_name: 'Test Sender' },
      created_at: '2026-03-01T09:30:00.000Z', ended_at: '2026-03-01T10:30:00.000Z',
    },
  };
}

export interface SampleSources {
  readonly assistantId: number | null;
  /** `midcall_lookup_table`: the key column value of the table's lowest-id row; null for an empty table. */
  readonly firstKeyValue: JsonValue;
}

/** A call sample with `changes` merged into its `call` (the call-event templates' test inputs). */
export function callSampleWith(assistantId: number, changes: JsonObject): JsonObject {
  return deepMerge(standardCallSample(assistantId), { call: changes });
}

/** `{"a":{"b":value}}` for the dot path `a.b`. */
export function atPath(path: string, value: JsonValue): JsonObject {
  return path
    .split('.')
    .reverse()
    .reduce<JsonValue>((inner, key) => define({}, key, inner), value) as JsonObject;
}

/**
 * `over` merged into `base`: objects merge key by key, anything else
 * (arrays included) replaces.
 */
export function deepMerge(base: JsonObject, over: JsonObject): JsonObject {
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(base)) define(out, key, value);
  for (const [key, value] of Object.entries(over)) {
    const current = Object.prototype.hasOwnProperty.call(out, key) ? out[key] : undefined;
    define(out, key, isJsonObject(current) && isJsonObject(value) ? deepMerge(current, value) : value);
  }
  return out;
}

// defineProperty: a `__proto__` key of user data stays a plain key.
function define(target: Record<string, JsonValue>, key: string, value: JsonValue): Record<string, JsonValue> {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}
