import { BuiltInTool, RuntimeTool } from '@voiceplane/domain';
import { ConversationSetup } from './instructions';

/** A function the model may call, in the OpenAI tools shape (`{type:"function", function:<this>}`). */
export interface ToolFunction {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: {
    readonly type: 'object';
    readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
    readonly required: readonly string[];
  };
}

/** What a function name the model called stands for. */
export type ResolvedToolCall =
  | { readonly kind: 'tool'; readonly name: string; readonly tool: RuntimeTool }
  | { readonly kind: 'builtin'; readonly name: string; readonly builtin: BuiltInTool };

const NO_ARGUMENTS: ToolFunction['parameters'] = { type: 'object', properties: {}, required: [] };

/** Why each built-in exists, for the model; an assistant's own `description` replaces it. */
const BUILT_IN_FUNCTIONS: {
  readonly [T in BuiltInTool['type']]: (tool: Extract<BuiltInTool, { type: T }>) => Omit<ToolFunction, 'name'>;
} = {
  end_call: () => ({
    description:
      'End the call. Use it when the conversation is over or the customer wants to hang up, after saying goodbye.',
    parameters: NO_ARGUMENTS,
  }),
  call_transfer: (tool) => ({
    description: tool.data.warm_transfer
      ? 'Transfer the call to a human colleague, who is briefed before the customer is connected.'
      : 'Transfer the call to a human colleague.',
    parameters: NO_ARGUMENTS,
  }),
  dtmf_input: () => ({
    description: 'Press keys on the phone keypad, for example to choose an option in an automated phone menu.',
    parameters: {
      type: 'object',
      properties: {
        digits: {
          type: 'string',
          pattern: '^[0-9*#]{1,32}$',
          description: 'The keys to press, in order: digits, * and #.',
        },
      },
      required: ['digits'],
    },
  }),
  collect_keypad: (tool) => ({
    description: `Let the customer type digits on their phone keypad (ended by ${tool.data.stop_key} or ${tool.data.timeout} seconds without a key); returns the digits typed. Ask the customer to type them first.`,
    parameters: NO_ARGUMENTS,
  }),
  calendar_integration: () => ({
    description: 'Book an appointment for the customer at the time they chose.',
    parameters: {
      type: 'object',
      properties: {
        start_time: {
          type: 'string',
          format: 'date-time',
          description: 'Start of the appointment, ISO 8601 with the UTC offset.',
        },
        name: { type: 'string', description: "The customer's name." },
        email: { type: 'string', description: "The customer's email address, when they gave one." },
      },
      required: ['start_time', 'name'],
    },
  }),
  assistant_transfer: () => ({
    description: 'Hand the conversation over to another assistant who takes over the same call.',
    parameters: NO_ARGUMENTS,
  }),
  do_not_call: () => ({
    description:
      "Put the customer's number on the do-not-call list. Use it only when the customer clearly asks not to be called again; then confirm it to them and end the call politely if they wish.",
    parameters: NO_ARGUMENTS,
  }),
};

/**
 * Every function of the conversation, names unique: the attached mid-call tools under their own
 * names (parameters as the runtime config gives them), then the built-ins under their type. A
 * built-in whose name is taken (a second `call_transfer`, or a mid-call tool called `end_call`)
 * gets the next free `_2`, `_3`, … suffix, so no tool of the assistant is hidden from the model.
 */
function namedTools(config: ConversationSetup): { readonly call: ResolvedToolCall; readonly fn: ToolFunction }[] {
  const taken = new Set<string>();
  const named: { call: ResolvedToolCall; fn: ToolFunction }[] = [];
  for (const tool of config.tools) {
    if (taken.has(tool.name)) continue; // attaching two tools of one name is refused; a stored config keeps the first
    taken.add(tool.name);
    named.push({
      call: { kind: 'tool', name: tool.name, tool },
      fn: { name: tool.name, description: tool.description, parameters: tool.parameters },
    });
  }
  for (const builtin of config.builtin_tools) {
    let name: string = builtin.type;
    for (let n = 2; taken.has(name); n += 1) name = `${builtin.type}_${n}`;
    taken.add(name);
    const base = (BUILT_IN_FUNCTIONS[builtin.type] as (tool: BuiltInTool) => Omit<ToolFunction, 'name'>)(builtin);
    const description = builtin.data.description?.trim() ? builtin.data.description.trim() : base.description;
    named.push({ call: { kind: 'builtin', name, builtin }, fn: { name, description, parameters: base.parameters } });
  }
  return named;
}

/** The functions the model sees: every attached mid-call tool, then every built-in tool. */
export function toolFunctions(config: ConversationSetup): ToolFunction[] {
  return namedTools(config).map((t) => t.fn);
}

/** The mid-call tool or built-in a called function name stands for; null for a name the model made up. */
export function resolveToolCall(config: ConversationSetup, name: string): ResolvedToolCall | null {
  return namedTools(config).find((t) => t.fn.name === name)?.call ?? null;
}

/**
 * The arguments a model sent (a JSON text in the OpenAI shape) as an object; null when they are
 * not a JSON object. Empty text counts as no arguments.
 */
export function parseToolArguments(text: string | null | undefined): Record<string, unknown> | null {
  if (text === null || text === undefined || text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
