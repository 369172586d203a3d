import {
  newSubstitutionLog,
  RuntimeConfig,
  substitute,
  SubstitutionLog,
  toolVariables,
  zonedNow,
} from '@voiceplane/domain';

/**
 * What the conversation policy reads from a call's runtime config. A call passes its config as
 * the runtime receives it; a chat conversation builds one for its assistant.
 */
export type ConversationSetup = Pick<
  RuntimeConfig,
  'direction' | 'channel' | 'customer_phone' | 'assistant_phone' | 'assistant' | 'variables' | 'tools' | 'builtin_tools'
>;

/**
 * The `{{variable}}` values of a conversation, the same set a tool request gets: the assistant's
 * variables, then the call's (which win), then the system values (`customer_phone`,
 * `current_date`, … in the assistant's time zone). `config.variables` already holds the call's
 * variables over the assistant's; the assistant's are applied first again so a config that only
 * carries call variables still sees them.
 */
export function conversationVariables(config: ConversationSetup, now: Date): Map<string, string> {
  const variables = toolVariables(
    {
      callId: 0,
      assistantId: config.assistant.id,
      customerPhone: config.customer_phone,
      assistantPhone: config.assistant_phone,
      direction: config.direction,
      channel: config.channel,
      conversationId: null,
      timezone: config.assistant.timezone,
      variables: config.variables,
      assistantVariables: config.assistant.variables ?? {},
    },
    now,
  );
  // The config names no call, so these two system values are unknown rather than wrong.
  variables.delete('call_id');
  variables.delete('conversation_id');
  return variables;
}

/**
 * `text` with its `{{variable}}` placeholders replaced (one pass, inserted values never scanned
 * again). A variable nobody set becomes `""`, as in tool requests, and is added to `log.unresolved`
 * when a log is given. `{single}` braces stay text.
 */
export function substituteVariables(
  text: string,
  config: ConversationSetup,
  now: Date,
  log: SubstitutionLog = newSubstitutionLog(),
): string {
  return substitute(text, { variables: conversationVariables(config, now), params: null }, (v) => v, log);
}

/** The texts the assistant says on its own, with their variables substituted; null when unset. */
export interface ConversationTexts {
  readonly instructions: string;
  /** Empty when the assistant waits for the customer. */
  readonly initialMessage: string;
  readonly reengagementPrompt: string | null;
  readonly voiceMailMessage: string | null;
  /** Variables that were used but have no value, in order of first use. */
  readonly unresolved: readonly string[];
}

export function conversationTexts(config: ConversationSetup, now: Date): ConversationTexts {
  const log = newSubstitutionLog();
  const fill = (text: string | null | undefined) =>
    text === null || text === undefined ? null : substituteVariables(text, config, now, log);
  return {
    instructions: composeInstructions(config, now, log),
    initialMessage: fill(config.assistant.initial_message) ?? '',
    reengagementPrompt: fill(config.assistant.reengagement_prompt),
    voiceMailMessage: fill(config.assistant.voice_mail_message),
    unresolved: [...log.unresolved],
  };
}

/**
 * The system instructions of a conversation: the assistant's prompt with its variables
 * substituted, then the language to speak and the current local time in the assistant's zone (a
 * model has no clock; "tomorrow" and opening hours need one).
 */
export function composeInstructions(
  config: ConversationSetup,
  now: Date,
  log: SubstitutionLog = newSubstitutionLog(),
): string {
  const prompt = substituteVariables(config.assistant.system_prompt ?? '', config, now, log).trim();
  return [prompt, languageLine(config), timeLine(config, now)].filter((part) => part !== '').join('\n\n');
}

function languageLine(config: ConversationSetup): string {
  const primary = config.assistant.language;
  const secondary = (config.assistant.secondary_languages ?? []).filter((code) => code !== primary);
  if (primary === null && secondary.length === 0) return '';
  const main = primary === null ? null : languageName(primary);
  const others = secondary.map(languageName);
  if (main === null) return `Speak the customer's language among: ${others.join(', ')}.`;
  if (others.length === 0) return `Speak ${main}.`;
  return `Speak ${main}. If the customer speaks ${others.join(' or ')}, answer in that language.`;
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/** `de` → `German (de)`; an unknown code stays as it is. */
export function languageName(code: string): string {
  let name = code;
  try {
    name = languageNames.of(code) ?? code;
  } catch {
    // not a well-formed language code: name it by its code
  }
  return name === code ? code : `${name} (${code})`;
}

function timeLine(config: ConversationSetup, now: Date): string {
  const zoned = zonedNow(now, config.assistant.timezone ?? 'UTC');
  const weekday = new Intl.DateTimeFormat('en-US', { timeZone: zoned.timezone, weekday: 'long' }).format(now);
  return `The current local time is ${weekday}, ${zoned.date} ${zoned.time} (${zoned.timezone}, UTC${zoned.datetime.slice(-6)}).`;
}
