import {
  CHATBOT_TYPES,
  ChatbotType,
  CUSTOMER_IDENTIFIER_MAX,
  FieldErrors,
  WEB_CHAT_MESSAGE_MAX,
} from '@voiceplane/domain';
import { AssistantRef } from '@voiceplane/application';
import { normalizeVariables } from '../assistants/assistant-messages';
import { Obj, Str, validateDto } from '../../validation';
import { refuse, validationAnswer } from '../../pipeline/answers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class StartChatBody {
  @Str({
    required: true,
    max: 64,
    description: "The assistant's UUID (its integer id is accepted too)",
    example: '3f0c2a9e-6b7d-4c1e-8f2a-1b2c3d4e5f60',
  })
  assistant_id!: string;
  @Str({ enum: CHATBOT_TYPES, description: '`widget` (billed per user message, default) or `test` (free)' })
  type?: ChatbotType;
  @Obj({ description: "Values for the assistant's `{{variables}}` (≤ 50 keys, values ≤ 1000 characters)" })
  variables?: Record<string, unknown>;
}

export class ChatMessageBody {
  @Str({
    required: true,
    max: WEB_CHAT_MESSAGE_MAX,
    trim: false,
    description: "The user's message, 1–2000 characters",
    example: "I'd like to schedule a demo",
  })
  message!: string;
}

export class GenerateReplyBody {
  @Str({
    required: true,
    max: 64,
    description: "The assistant's integer id (its UUID is accepted too)",
    example: '101',
  })
  assistant_id!: string;
  @Str({
    required: true,
    max: CUSTOMER_IDENTIFIER_MAX,
    description: 'Stable identifier of the customer on your channel (phone, e-mail, CRM id)',
    example: '+14155551234',
  })
  customer_identifier!: string;
  @Str({
    required: true,
    trim: false,
    max: WEB_CHAT_MESSAGE_MAX,
    description: "The customer's message",
    example: 'Can I book an appointment?',
  })
  message!: string;
  @Obj({ description: "Merged over the conversation's variables" }) variables?: Record<string, unknown>;
}

class VariablesBody {
  @Obj({ entries: normalizeVariables }) variables?: Record<string, string>;
}

/** `assistant_id` may come as a JSON integer (the reference documents both spellings): read as its digits. */
export function withTextAssistantId(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw ?? {};
  const id = (raw as { assistant_id?: unknown }).assistant_id;
  return Number.isSafeInteger(id) ? { ...raw, assistant_id: String(id) } : raw;
}

/** The assistant a body names: a UUID or a positive integer id; anything else names no assistant. */
export function assistantRefOf(raw: string): AssistantRef | null {
  const text = raw.trim();
  if (/^[0-9]{1,15}$/.test(text) && Number(text) > 0) return { id: Number(text) };
  return UUID.test(text) ? { uuid: text.toLowerCase() } : null;
}

/**
 * The chatbot routes answer validation in their own words: `{"status":false,"error":"message is
 * required"}` — the first problem, said as the public reference says it — plus every field's
 * messages under `errors`.
 */
export function failChatbotValidation(errors: FieldErrors): never {
  const [field, messages] = Object.entries(errors)[0] ?? ['body', ['The given data was invalid.']];
  const first = messages[0] ?? 'The given data was invalid.';
  const error = /field is required\.$/.test(first) ? `${field} is required` : first;
  refuse({ status: 422, body: { status: false, error, errors } });
}

export function parseChatbot<T>(dto: new () => T, input: unknown): T {
  const r = validateDto(dto, input);
  if (!r.ok) failChatbotValidation(r.errors);
  return r.value;
}

/** Variables are judged once the rest of the body has the right shape. */
export function variablesOf(
  raw: Record<string, unknown> | undefined,
  onError: (errors: FieldErrors) => never,
): Record<string, string> {
  const r = validateDto(VariablesBody, { variables: raw });
  if (!r.ok) onError(r.errors);
  return r.value.variables ?? {};
}

export const failStandardValidation = (errors: FieldErrors): never => refuse(validationAnswer(errors));
