/**
 * Built-in tools of an assistant: stored and returned as `{type, data}` with every
 * data field present (defaults filled), whatever shape the client sent.
 */
export const BUILT_IN_TOOL_TYPES = [
  'end_call',
  'call_transfer',
  'dtmf_input',
  'collect_keypad',
  'calendar_integration',
  'assistant_transfer',
  /** The customer asks not to be called again: their number joins the account's do-not-call list; the call goes on. */
  'do_not_call',
] as const;
export type BuiltInToolType = (typeof BUILT_IN_TOOL_TYPES)[number];

export const MAX_BUILT_IN_TOOLS = 20;
export const TOOL_TEXT_MAX = 500;
export const KEYPAD_TIMEOUT_MIN = 1;
export const KEYPAD_TIMEOUT_MAX = 30;
export const KEYPAD_STOP_KEYS = ['#', '*'] as const;
/** E.164: `+`, then 7–15 digits, the first 1–9. */
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;

interface Described {
  readonly description: string | null;
}

export interface ToolData {
  end_call: Described;
  call_transfer: Described & {
    readonly phone_number: string;
    readonly warm_transfer: boolean;
    readonly warm_transfer_message: string | null;
  };
  dtmf_input: Described;
  collect_keypad: Described & { readonly timeout: number; readonly stop_key: (typeof KEYPAD_STOP_KEYS)[number] };
  calendar_integration: Described & { readonly event_type_id: number };
  assistant_transfer: Described & {
    readonly assistant_id: number;
    readonly message_before_transfer: string | null;
    readonly speak_transfer_greeting: boolean;
  };
  do_not_call: Described;
}

export type BuiltInTool = { [T in BuiltInToolType]: { readonly type: T; readonly data: ToolData[T] } }[BuiltInToolType];

/** Fields a client must send for each type; everything else has a default. */
type RequiredData = {
  end_call: never;
  call_transfer: 'phone_number';
  dtmf_input: never;
  collect_keypad: never;
  calendar_integration: 'event_type_id';
  assistant_transfer: 'assistant_id';
  do_not_call: never;
};

export type BuiltInToolInput = {
  [T in BuiltInToolType]: {
    readonly type: T;
    readonly data: Pick<ToolData[T], RequiredData[T] & keyof ToolData[T]> & Partial<ToolData[T]>;
  };
}[BuiltInToolType];

const DATA_DEFAULTS: { [T in BuiltInToolType]: Omit<ToolData[T], RequiredData[T]> } = {
  end_call: { description: null },
  call_transfer: { description: null, warm_transfer: false, warm_transfer_message: null },
  dtmf_input: { description: null },
  collect_keypad: { description: null, timeout: 5, stop_key: '#' },
  calendar_integration: { description: null },
  assistant_transfer: { description: null, message_before_transfer: null, speak_transfer_greeting: true },
  do_not_call: { description: null },
};

export function builtInTool(input: BuiltInToolInput): BuiltInTool {
  const sent = Object.fromEntries(Object.entries(input.data).filter(([, v]) => v !== undefined));
  return { type: input.type, data: { ...DATA_DEFAULTS[input.type], ...sent } } as BuiltInTool;
}

/** Account records the tools point at, with the index of the tool that names them. */
export interface ToolReference {
  readonly index: number;
  readonly id: number;
}

export function eventTypeReferences(tools: readonly BuiltInTool[]): ToolReference[] {
  return tools.flatMap((t, index) => (t.type === 'calendar_integration' ? [{ index, id: t.data.event_type_id }] : []));
}

export function assistantReferences(tools: readonly BuiltInTool[]): ToolReference[] {
  return tools.flatMap((t, index) => (t.type === 'assistant_transfer' ? [{ index, id: t.data.assistant_id }] : []));
}
