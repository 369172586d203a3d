import {
  AMBIENT_SOUNDS,
  ASSISTANT_MODES,
  ASSISTANT_TYPES,
  AssistantChanges,
  builtInTool,
  BUILT_IN_TOOL_TYPES,
  BuiltInToolInput,
  BuiltInToolType,
  canonicalTimeZone,
  E164_PATTERN,
  ENDPOINT_TYPES,
  FieldErrors,
  fillerConfig,
  KEYPAD_STOP_KEYS,
  KEYPAD_TIMEOUT_MAX,
  KEYPAD_TIMEOUT_MIN,
  KNOWLEDGEBASE_MODES,
  MAX_BUILT_IN_TOOLS,
  MAX_FILLER_LENGTH,
  MAX_FILLERS_PER_CATEGORY,
  MAX_POST_CALL_FIELDS,
  POST_CALL_DESCRIPTION_MAX,
  POST_CALL_FIELD_TYPES,
  POST_CALL_NAME_MAX,
  POST_CALL_NAME_PATTERN,
  PostCallField,
  SPEECH_SPEED_MAX,
  SPEECH_SPEED_MIN,
  TOOL_TEXT_MAX,
} from '@voiceplane/domain';
import { ASSISTANT_MESSAGES, normalizeVariables } from './assistant-messages';
import { Arr, Bool, Ctor, Id, Int, isPlainObject, ItemChoice, Num, Obj, Str, validateDto } from '../../validation';
import { refuse, validationAnswer } from '../../pipeline/answers';
import { assistantChangesFromWire } from './assistant-body-mapping';

/**
 * The assistant body: one declaration per field gives coercion, the catalogue
 * messages and the OpenAPI schema. Cross-field rules run later, in the domain.
 */

const idItem = { kind: 'id' } as const;

class PostCallFieldBody {
  @Str({ required: true, min: 1, max: POST_CALL_NAME_MAX, pattern: POST_CALL_NAME_PATTERN }) name!: string;
  @Str({ required: true, enum: POST_CALL_FIELD_TYPES }) type!: PostCallField['type'];
  @Str({ max: POST_CALL_DESCRIPTION_MAX, nullable: true }) description?: string | null;
}

class FillerConfigBody {
  @Arr({ kind: 'string', max: MAX_FILLER_LENGTH }, { max: MAX_FILLERS_PER_CATEGORY }) positive?: string[];
  @Arr({ kind: 'string', max: MAX_FILLER_LENGTH }, { max: MAX_FILLERS_PER_CATEGORY }) negative?: string[];
  @Arr({ kind: 'string', max: MAX_FILLER_LENGTH }, { max: MAX_FILLERS_PER_CATEGORY }) question?: string[];
  @Arr({ kind: 'string', max: MAX_FILLER_LENGTH }, { max: MAX_FILLERS_PER_CATEGORY }) neutral?: string[];
}

// Built-in tools, one DTO per type; keys of errors are `tools.{i}.<field>`.

/** What every item has; alone, it reports a missing or unknown type or a `data` that is no object. */
class BuiltInToolItem {
  @Str({ required: true, enum: BUILT_IN_TOOL_TYPES, messages: { type: 'The selected {field} is invalid.' } })
  type!: BuiltInToolType;
  @Obj() data?: Record<string, unknown>;
}

const describe = { max: TOOL_TEXT_MAX, nullable: true } as const;
class DescribedToolData extends BuiltInToolItem {
  @Str(describe) description?: string | null;
}
class CallTransferData extends DescribedToolData {
  @Str({
    required: true,
    pattern: E164_PATTERN,
    messages: { pattern: 'The {field} must be a valid E.164 phone number.' },
  })
  phone_number!: string;
  @Bool() warm_transfer?: boolean;
  @Str(describe) warm_transfer_message?: string | null;
}
class CollectKeypadData extends DescribedToolData {
  @Int({ min: KEYPAD_TIMEOUT_MIN, max: KEYPAD_TIMEOUT_MAX }) timeout?: number;
  @Str({ enum: KEYPAD_STOP_KEYS }) stop_key?: string;
}
class CalendarData extends DescribedToolData {
  @Id({ required: true }) event_type_id!: number;
}
class AssistantTransferData extends DescribedToolData {
  @Id({ required: true }) assistant_id!: number;
  @Str(describe) message_before_transfer?: string | null;
  @Bool() speak_transfer_greeting?: boolean;
}

const TOOL_DATA: Record<BuiltInToolType, Ctor<BuiltInToolItem>> = {
  end_call: DescribedToolData,
  call_transfer: CallTransferData,
  dtmf_input: DescribedToolData,
  collect_keypad: CollectKeypadData,
  calendar_integration: CalendarData,
  assistant_transfer: AssistantTransferData,
  do_not_call: DescribedToolData,
};

/** Nested `{type, data:{…}}` or flat `{type, …}`: both are accepted, output is always nested. */
const BUILT_IN_TOOL: ItemChoice = {
  choose: (item) => {
    const type = typeof item.type === 'string' ? item.type.trim() : item.type;
    const nested = item.data !== undefined && item.data !== null;
    if (!BUILT_IN_TOOL_TYPES.includes(type as BuiltInToolType))
      return { dto: BuiltInToolItem, fields: { type: item.type } };
    if (nested && !isPlainObject(item.data))
      return { dto: BuiltInToolItem, fields: { type: item.type, data: item.data } };
    return {
      dto: TOOL_DATA[type as BuiltInToolType],
      fields: nested ? { ...(item.data as object), type: item.type } : item,
    };
  },
};

/** Every field but `name`, whose rule differs between create and update. */
class AssistantSettings {
  @Str({ enum: ASSISTANT_TYPES, description: 'Default outbound' }) type?: string;
  @Str({ enum: ASSISTANT_MODES, description: 'Default pipeline' }) mode?: string;
  @Str({ max: 64, canonical: canonicalTimeZone, description: 'IANA zone, default UTC', example: 'Europe/Berlin' })
  timezone?: string;
  // Empty texts are meaningful (the assistant waits for the customer): null and "" store "".
  @Str({ max: 1000, nullable: true }) initial_message?: string | null;
  @Str({ max: 20000, nullable: true }) system_prompt?: string | null;
  @Str({ enum: KNOWLEDGEBASE_MODES, nullable: true }) knowledgebase_mode?: string | null;
  @Str({ max: 1000, nullable: true }) reengagement_prompt?: string | null;
  @Str({ max: 1000, nullable: true }) voice_mail_message?: string | null;
  @Str({ enum: ENDPOINT_TYPES }) endpoint_type?: string;
  @Str({ enum: AMBIENT_SOUNDS }) ambient_sound?: string;
  @Str({ url: true, nullable: true, description: 'Post-call webhook; public http(s) URL' }) webhook_url?: string | null;
  @Str({ url: true, nullable: true }) conversation_ended_webhook_url?: string | null;
  @Id({ description: 'From /assistants/voices; must support the mode' }) voice_id?: number;
  @Id({ description: 'From /assistants/languages; default 1' }) language_id?: number;
  @Id({ description: 'Model of kind llm' }) llm_model_id?: number;
  @Id({ nullable: true, description: 'Model of kind multimodal' }) multimodal_model_id?: number | null;
  @Id({ nullable: true }) chat_llm_fallback_id?: number | null;
  @Id({ nullable: true }) knowledgebase_id?: number | null;
  @Id({ nullable: true }) folder_id?: number | null;
  @Id({ nullable: true }) phone_number_id?: number | null;
  @Id({ nullable: true }) synthesizer_provider_id?: number | null;
  @Id({ nullable: true }) transcriber_provider_id?: number | null;
  @Arr(idItem, { max: 10 }) secondary_language_ids?: number[];
  @Arr(idItem, { max: 50 }) label_ids?: number[];
  @Arr(idItem, { max: 50 }) tool_ids?: number[];
  @Arr(BUILT_IN_TOOL, {
    max: MAX_BUILT_IN_TOOLS,
    description: 'Built-in tools: {type, data} or flat {type, ...fields}',
  })
  tools?: BuiltInToolItem[];
  @Arr(PostCallFieldBody, { max: MAX_POST_CALL_FIELDS }) post_call_schema?: PostCallField[];
  @Num({ min: 0, max: 1, nullable: true }) turn_detection_threshold?: number | null;
  @Num({ min: 0, max: 1 }) voice_stability?: number;
  @Num({ min: 0, max: 1 }) voice_similarity?: number;
  @Num({ min: SPEECH_SPEED_MIN, max: SPEECH_SPEED_MAX, messages: { between: ASSISTANT_MESSAGES.speechSpeed } })
  speech_speed?: number;
  @Num({ min: 0, max: 1 }) llm_temperature?: number;
  @Int({ min: 20, max: 1200 }) max_duration?: number;
  @Int({ min: 1, max: 360 }) max_silence_duration?: number;
  @Int({ min: 1, max: 120, nullable: true }) max_initial_silence_duration?: number | null;
  @Int({ min: 1, max: 60 }) ringing_time?: number;
  @Int({ min: 7, max: 600 }) reengagement_interval?: number;
  @Num({ min: 0, max: 5 }) endpoint_sensitivity?: number;
  @Num({ min: 0, max: 5 }) interrupt_sensitivity?: number;
  @Int({ min: 0, max: 10, nullable: true }) min_interrupt_words?: number | null;
  @Num({ min: 0, max: 1 }) ambient_sound_volume?: number;
  @Int({ min: 1, max: 1440 }) conversation_inactivity_timeout?: number;
  @Bool() tts_emotion_enabled?: boolean;
  @Bool() allow_interruptions?: boolean;
  @Bool() fillers?: boolean;
  @Bool() record?: boolean;
  @Bool() enable_noise_cancellation?: boolean;
  @Bool() wait_for_customer?: boolean;
  @Bool() end_call_on_voicemail?: boolean;
  @Bool() is_webhook_active?: boolean;
  @Bool() send_webhook_only_on_completed?: boolean;
  @Bool() include_recording_in_webhook?: boolean;
  @Bool() post_call_evaluation?: boolean;
  @Bool() conversation_ended_retrigger?: boolean;
  @Obj({
    nullable: true,
    shape: FillerConfigBody,
    description: '{positive, negative, question, neutral}: string[] ≤ 20 of ≤ 100 chars',
  })
  filler_config?: FillerConfigBody | null;
  @Obj({ entries: normalizeVariables, description: '≤ 50 keys; string values ≤ 1000' }) variables?: Record<
    string,
    string
  >;
}

export class AssistantFields extends AssistantSettings {
  @Str({ min: 1, max: 255 }) name?: string;
}

export class CreateAssistantBody extends AssistantSettings {
  @Str({ required: true, min: 1, max: 255 }) name!: string;
}

function definedOnly(o: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

export interface ParsedAssistantBody {
  readonly changes: AssistantChanges;
  /** Shape errors; the domain rules still run over `changes`, which holds only well-formed fields. */
  readonly errors: FieldErrors;
}

/**
 * Every field is checked independently, so a request with one bad field still has its other
 * fields validated by the cross-field rules and the client sees all problems at once.
 */
export function parseAssistantBody(input: unknown, operation: 'create' | 'update'): ParsedAssistantBody {
  if (!isPlainObject(input)) refuse(validationAnswer({ body: ['The request body must be a JSON object.'] }));
  const options = { partial: operation === 'update' };
  const strict = validateDto(operation === 'create' ? CreateAssistantBody : AssistantFields, input, options);
  const errors: FieldErrors = strict.ok ? {} : { ...strict.errors };
  let values: Record<string, unknown>;
  if (strict.ok) values = definedOnly(strict.value as object);
  else {
    const failed = new Set(Object.keys(errors).map((key) => key.split('.')[0]));
    const rest = validateDto(
      AssistantFields,
      Object.fromEntries(Object.entries(input).filter(([k]) => !failed.has(k))),
      options,
    );
    values = rest.ok ? definedOnly(rest.value as object) : {};
  }

  const changes: Record<string, unknown> = { ...values };
  for (const text of ['initial_message', 'system_prompt'] as const) if (values[text] === null) changes[text] = '';
  if (Array.isArray(values.tools)) {
    changes.tools = (values.tools as BuiltInToolItem[]).map(({ type, data: _nested, ...fields }) =>
      builtInTool({ type, data: definedOnly(fields) } as BuiltInToolInput),
    );
  }
  if (Array.isArray(values.post_call_schema)) {
    changes.post_call_schema = (values.post_call_schema as PostCallFieldBody[]).map((f) => ({
      name: f.name,
      type: f.type,
      description: f.description ?? null,
    }));
  }
  if (isPlainObject(values.filler_config)) changes.filler_config = fillerConfig(definedOnly(values.filler_config));
  return { changes: assistantChangesFromWire(changes), errors };
}
