/**
 * A mid-call tool: an HTTP endpoint of the account owner that the AI calls during a
 * call, or (type `automation`) an automation run inside voiceplane.
 */
export const TOOL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ToolMethod = (typeof TOOL_METHODS)[number];

export const TOOL_BODY_FORMATS = ['json', 'form'] as const;
export type ToolBodyFormat = (typeof TOOL_BODY_FORMATS)[number];

export const TOOL_PARAMETER_TYPES = ['string', 'number', 'float', 'boolean'] as const;
export type ToolParameterType = (typeof TOOL_PARAMETER_TYPES)[number];

export const TOOL_TYPES = ['http', 'automation'] as const;
export type ToolType = (typeof TOOL_TYPES)[number];

export interface ToolHeader {
  readonly name: string;
  readonly value: string;
}

export interface ToolStaticField {
  readonly key: string;
  readonly value: string;
}

export interface ToolParameter {
  readonly name: string;
  readonly type: ToolParameterType;
  readonly description: string;
  readonly required: boolean;
}

/** What the gateway needs to build a request. */
export interface ToolDefinition {
  readonly id: number;
  readonly name: string;
  readonly type: ToolType;
  /** Null only for automation tools. */
  readonly endpoint: string | null;
  readonly method: ToolMethod | null;
  readonly bodyFormat: ToolBodyFormat;
  /** Seconds. */
  readonly timeout: number;
  readonly headers: readonly ToolHeader[];
  readonly staticFields: readonly ToolStaticField[];
  readonly schema: readonly ToolParameter[];
}

export interface Tool extends ToolDefinition {
  readonly userId: number;
  readonly description: string;
  readonly automationId: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Stored fields a user may set; the rest is owned by voiceplane. */
export type ToolFields = Pick<
  Tool,
  'name' | 'description' | 'endpoint' | 'method' | 'bodyFormat' | 'timeout' | 'headers' | 'staticFields' | 'schema'
>;

/** Tool size rules. */
export const TOOL_LIMITS = {
  name: 64,
  description: 255,
  endpoint: 2048,
  headers: 20,
  headerName: 256,
  headerValue: 2048,
  staticFields: 50,
  staticKey: 64,
  staticValue: 2048,
  schema: 50,
  parameterName: 64,
  parameterDescriptionMin: 3,
  parameterDescriptionMax: 255,
  timeoutMin: 1,
  timeoutMax: 30,
  defaultTimeout: 10,
} as const;

export const TOOL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** RFC 9110 token characters: what a header name may be made of. */
export const HTTP_TOKEN_PATTERN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A header value as RFC 9110 allows it: no control characters but tab (a CR or LF would split the header). */
export const HTTP_FIELD_VALUE_PATTERN = /^[^\x00-\x08\x0A-\x1F\x7F]*$/;

/** Sent on update of an automation tool, these are ignored: the automation decides them. */
export const AUTOMATION_OWNED_FIELDS = ['endpoint', 'method', 'body_format'] as const;
