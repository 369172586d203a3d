import { BuiltInTool, keypadEntry, RuntimeConfig, TranscriptItem } from '@voiceplane/domain';
import { handOver, keypadResult } from '../conversation-policy';
import { ChatMessage } from '../conversation-policy';
import { resolveToolCall } from '../conversation-policy';

/** How a function call shows in the transcript: `[tool check_order] {"status":"shipped"}`. */
const TOOL_LINE_PREFIX = '[tool ';
const TOOL_LINE = /^\[tool ([^\]\s]+)\] ([\s\S]*)$/;
/** Tool results are long; the transcript keeps their start. */
const TOOL_LINE_CONTENT_MAX = 500;

export const json = (value: object) => JSON.stringify(value);

export function toolLine(name: string, content: string, at: string): TranscriptItem {
  const kept =
    [...content].length > TOOL_LINE_CONTENT_MAX ? `${[...content].slice(0, TOOL_LINE_CONTENT_MAX).join('')}…` : content;
  return { role: 'assistant', content: `${TOOL_LINE_PREFIX}${name}] ${kept}`, at };
}

/** The results written for a hand-over that went ahead and for keys being awaited; the replay below recognises them. */
export const HANDED_OVER = (assistant: string) => json({ ok: true, handed_over_to: assistant });
export const AWAITING_KEYS = (stopKey: string) =>
  json({ ok: true, awaiting_keys: true, message: `Waiting for the customer to type the digits, ended by ${stopKey}.` });

/** `collect_keypad` asked for keys and the customer has not typed them yet. */
export interface KeypadCollection {
  readonly name: string;
  readonly stopKey: Extract<BuiltInTool, { type: 'collect_keypad' }>['data']['stop_key'];
}

/** Where a text call stands, read back from its transcript. */
export interface TextCallState {
  /** The configuration answering now: the call's, or the assistant's it was handed over to. */
  readonly config: RuntimeConfig;
  /** The conversation as the model reads it: spoken lines, and the keys typed as `collect_keypad` results. */
  readonly history: ChatMessage[];
  /** Set when the customer's next line is keypad input. */
  readonly collecting: KeypadCollection | null;
}

/**
 * The customer's line typed while keys were awaited, as the model reads it: the `collect_keypad`
 * call and its result (the keys in the line), then the line itself when it also held words.
 */
export function typedKeys(
  collection: KeypadCollection,
  line: string,
  callId: string,
): { readonly messages: ChatMessage[]; readonly result: string } {
  const entry = keypadEntry(line, collection.stopKey);
  const result = json(keypadResult(entry.digits));
  return {
    result,
    messages: [
      { role: 'assistant', content: null, toolCalls: [{ id: callId, name: collection.name, arguments: '{}' }] },
      { role: 'tool', toolCallId: callId, content: result },
      ...(entry.words ? [{ role: 'user' as const, content: line }] : []),
    ],
  };
}

function parsedObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * A text call keeps no state besides its transcript: replaying it from the configuration the call
 * started with gives the assistant answering now (each successful `assistant_transfer` line hands
 * over, resolved against the assistant that was answering then, so only a target of that
 * assistant counts) and whether keys are awaited. Function names resolve against the current
 * assistant before a line counts, so a mid-call tool's result can never pass for a built-in's.
 */
export function textCallState(start: RuntimeConfig, transcript: readonly TranscriptItem[], now: Date): TextCallState {
  let config = start;
  let collecting: KeypadCollection | null = null;
  const history: ChatMessage[] = [];
  transcript.forEach((item, index) => {
    if (item.role === 'customer') {
      if (collecting === null) history.push({ role: 'user', content: item.content });
      else history.push(...typedKeys(collecting, item.content, `keypad_${index}`).messages);
      collecting = null;
      return;
    }
    const tool = item.content.startsWith(TOOL_LINE_PREFIX) ? TOOL_LINE.exec(item.content) : null;
    if (tool === null) {
      history.push({ role: 'assistant', content: item.content });
      return;
    }
    const resolved = resolveToolCall(config, tool[1]);
    if (resolved?.kind !== 'builtin') return;
    const result = parsedObject(tool[2]);
    if (resolved.builtin.type === 'assistant_transfer' && result.ok === true)
      config = handOver(config, resolved.builtin, now)?.config ?? config;
    if (resolved.builtin.type === 'collect_keypad' && result.awaiting_keys === true)
      collecting = { name: tool[1], stopKey: resolved.builtin.data.stop_key };
  });
  return { config, history, collecting };
}
