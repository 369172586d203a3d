import { BuiltInTool, DTMF_DIGITS_PATTERN, handedOverConfig, handOverTarget, RuntimeConfig } from '@voiceplane/domain';
import { conversationTexts, substituteVariables } from './instructions';

/**
 * The parts of the built-in tools that do not depend on the medium: what the model reads back
 * and which assistant takes over. The voice agent and sandbox text calls both carry out built-ins
 * with these, so a text call answers as the phone call would.
 */

/** What the model reads when a built-in cannot be carried out; the conversation goes on. */
export const BUILT_IN_REFUSALS = {
  invalidDigits: { error: 'invalid_digits', message: 'Digits must be 1 to 32 of 0-9, * and #.' },
  /** No scheduling provider exists yet: the assistant says it cannot book, wherever it talks. */
  noScheduling: {
    error: 'not_available',
    message: 'No scheduling service is connected. Tell the customer you cannot book the appointment on this call.',
  },
  noSuchColleague: {
    error: 'not_available',
    message: 'That colleague is not available; continue the conversation yourself.',
  },
  doNotCallFailed: {
    error: 'not_listed',
    message:
      'The number could not be put on the do-not-call list. Apologise and tell the customer it will be passed on.',
  },
} as const;

/** What the model reads once the customer's number is on the do-not-call list; the call goes on. */
export const DO_NOT_CALL_DONE = {
  ok: true,
  message:
    'The customer will not be called again by this account. Confirm it to them; end the call politely if they wish.',
} as const;

/** The keys a `dtmf_input` call may press, or null when its `digits` are not keypad keys. */
export function dtmfDigits(args: Readonly<Record<string, unknown>>): string | null {
  return typeof args.digits === 'string' && DTMF_DIGITS_PATTERN.test(args.digits) ? args.digits : null;
}

/** What the model reads after collecting keys: the digits, or that the customer typed none. */
export function keypadResult(digits: string): Record<string, unknown> {
  return digits === '' ? { digits: null, message: 'The customer typed nothing.' } : { digits };
}

/** An `assistant_transfer` that can go ahead: the configuration the call continues with and what is said on the way. */
export interface HandOver {
  readonly config: RuntimeConfig;
  readonly assistantName: string;
  /** Said by the assistant handing over (`message_before_transfer`); null when it has none. */
  readonly before: string | null;
  /** Said by the new assistant (its initial message, when `speak_transfer_greeting`); null when nothing. */
  readonly greeting: string | null;
}

/**
 * Where an `assistant_transfer` of the assistant in `config` leads; null when its target is not
 * one the call carries (deleted since, or never the account's), so the current assistant carries on.
 */
export function handOver(
  config: RuntimeConfig,
  tool: Extract<BuiltInTool, { type: 'assistant_transfer' }>,
  now: Date,
): HandOver | null {
  const target = handOverTarget(config, tool.data.assistant_id);
  if (target === null) return null;
  const next = handedOverConfig(config, target);
  const before = substituteVariables(tool.data.message_before_transfer ?? '', config, now).trim();
  const greeting = tool.data.speak_transfer_greeting ? conversationTexts(next, now).initialMessage.trim() : '';
  return { config: next, assistantName: next.assistant.name, before: before || null, greeting: greeting || null };
}
