/**
 * The assistant and tool create bodies declared with the engine that preceded class-validator
 * (copies of the DTOs as they stood at commit b18275f), for tools/bench/validation.ts only.
 */
import {
  AMBIENT_SOUNDS, ASSISTANT_MODES, ASSISTANT_TYPES, ENDPOINT_TYPES, HTTP_TOKEN_PATTERN, KNOWLEDGEBASE_MODES,
  MAX_BUILT_IN_TOOLS, MAX_POST_CALL_FIELDS, POST_CALL_DESCRIPTION_MAX, POST_CALL_FIELD_TYPES,
  POST_CALL_NAME_MAX, POST_CALL_NAME_PATTERN, PostCallField, SPEECH_SPEED_MAX, SPEECH_SPEED_MIN, TOOL_BODY_FORMATS, TOOL_LIMITS, TOOL_METHODS,
  TOOL_NAME_PATTERN, TOOL_PARAMETER_TYPES, ToolBodyFormat, ToolMethod, ToolParameterType,
} from '@voiceplane/domain';
import { Arr, Bool, Id, Int, Num, Obj, Str } from './legacy-validation';

const idItem = { kind: 'id' } as const;

class PostCallFieldBody {
  @Str({ required: true, min: 1, max: POST_CALL_NAME_MAX, pattern: POST_CALL_NAME_PATTERN }) name!: string;
  @Str({ required: true, enum: POST_CALL_FIELD_TYPES }) type!: PostCallField['type'];
  @Str({ max: POST_CALL_DESCRIPTION_MAX, nullable: true }) description?: string | null;
}

/** Every field but `name`, whose rule differs between create and update. */
class AssistantSettings {
  @Str({ enum: ASSISTANT_TYPES, description: 'Default outbound' }) type?: string;
  @Str({ enum: ASSISTANT_MODES, description: 'Default pipeline' }) mode?: string;
  @Str({ max: 64, description: 'IANA zone, default UTC', example: 'Europe/Berlin' }) timezone?: string;
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
  @Arr(undefined, { max: MAX_BUILT_IN_TOOLS, description: 'Built-in tools: {type, data} or flat {type, ...fields}' }) tools?: unknown[];
  @Arr(PostCallFieldBody, { max: MAX_POST_CALL_FIELDS }) post_call_schema?: PostCallField[];
  @Num({ min: 0, max: 1, nullable: true }) turn_detection_threshold?: number | null;
  @Num({ min: 0, max: 1 }) voice_stability?: number;
  @Num({ min: 0, max: 1 }) voice_similarity?: number;
  @Num({ min: SPEECH_SPEED_MIN, max: SPEECH_SPEED_MAX, messages: { between: 'Speech speed must be between 0.7 and 1.2.' } }) speech_speed?: number;
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
  @Obj({ nullable: true, description: '{positive, negative, question, neutral}: string[] ≤ 20 of ≤ 100 chars' }) filler_config?: Record<string, unknown> | null;
  @Obj({ description: '≤ 50 keys; string values ≤ 1000' }) variables?: Record<string, unknown>;
}


class CreateAssistantBody extends AssistantSettings {
  @Str({ required: true, min: 1, max: 255 }) name!: string;
}


export { CreateAssistantBody };

class ToolHeaderBody {
  @Str({ required: true, max: TOOL_LIMITS.headerName, pattern: HTTP_TOKEN_PATTERN, description: 'HTTP token characters' }) name!: string;
  @Str({ required: true, max: TOOL_LIMITS.headerValue, description: '{{variable}} placeholders allowed' }) value!: string;
}

class ToolStaticFieldBody {
  @Str({ required: true, max: TOOL_LIMITS.staticKey, description: 'Unique in the tool' }) key!: string;
  @Str({ max: TOOL_LIMITS.staticValue, description: 'Absent = ""; {{variable}} placeholders allowed' }) value?: string;
}

class ToolParameterBody {
  @Str({ required: true, max: TOOL_LIMITS.parameterName, pattern: TOOL_NAME_PATTERN, description: 'Unique in the tool' }) name!: string;
  @Str({ required: true, enum: TOOL_PARAMETER_TYPES, description: 'number = integer, float = any number' }) type!: ToolParameterType;
  @Str({ required: true, min: TOOL_LIMITS.parameterDescriptionMin, max: TOOL_LIMITS.parameterDescriptionMax }) description!: string;
  @Bool({ description: 'Default false' }) required?: boolean;
}

const NAME = { max: TOOL_LIMITS.name, pattern: TOOL_NAME_PATTERN, messages: { pattern: 'Tool name must contain only letters, digits and underscores and start with a letter or underscore.' } } as const;
const DESCRIPTION = { max: TOOL_LIMITS.description } as const;
const ENDPOINT = {
  max: TOOL_LIMITS.endpoint,
  description: 'Absolute public http(s) URL; {param} and {{variable}} placeholders in path, query and fragment',
  example: 'https://api.example.com/orders/{order_id}',
} as const;
const METHOD = { enum: TOOL_METHODS, upper: true, description: 'Case-insensitive' } as const;

/** Fields optional on create and update alike. */
class ToolSettingsBody {
  @Str({ enum: ['http'], messages: { in: 'Only http tools can be created through the API.' }, description: 'Only http through the API' }) type?: string;
  @Str({ enum: TOOL_BODY_FORMATS, description: 'Default json; POST/PUT/PATCH only' }) body_format?: ToolBodyFormat;
  @Int({ min: TOOL_LIMITS.timeoutMin, max: TOOL_LIMITS.timeoutMax, description: 'Seconds, default 10' }) timeout?: number;
  @Arr(ToolHeaderBody, { max: TOOL_LIMITS.headers }) headers?: ToolHeaderBody[];
  @Arr(ToolStaticFieldBody, { max: TOOL_LIMITS.staticFields }) static_fields?: ToolStaticFieldBody[];
  @Arr(ToolParameterBody, { max: TOOL_LIMITS.schema }) schema?: ToolParameterBody[];
}

class CreateToolBody extends ToolSettingsBody {
  @Str({ required: true, ...NAME }) name!: string;
  @Str({ required: true, ...DESCRIPTION }) description!: string;
  @Str({ required: true, ...ENDPOINT }) endpoint!: string;
  @Str({ required: true, ...METHOD }) method!: ToolMethod;
}


export { CreateToolBody };
