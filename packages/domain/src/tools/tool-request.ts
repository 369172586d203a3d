import { checkParsedTargetUrl, TargetUrlPolicy } from '../net/target-policy';
import { ParameterValue, resolveParameters } from './parameters';
import { newSubstitutionLog, PlaceholderValues, substitute, SubstitutionLog } from './placeholders';
import { ToolBodyFormat, ToolDefinition, ToolHeader, ToolMethod } from './tool';

export interface ToolRequestSpec {
  /** An `http` tool (endpoint and method set). */
  readonly tool: ToolDefinition;
  /** AI-extracted (or test) arguments, as received. */
  readonly params: Readonly<Record<string, unknown>>;
  readonly variables: ReadonlyMap<string, string>;
  /** Null outside a call (render and test without `call_id`). */
  readonly callId: number | null;
  /** `voiceplane/<version>`. */
  readonly userAgent: string;
  readonly policy: TargetUrlPolicy;
}

export type TargetCheckStatus = 'blocked' | 'unchecked';

export interface TargetCheck {
  readonly scheme: string;
  readonly host: string;
  /** `blocked` when the URL alone breaks the policy; DNS is only asked at send time. */
  readonly status: TargetCheckStatus;
}

/** The request exactly as it would be sent, and why it might not be. */
export interface ToolRequest {
  readonly method: ToolMethod;
  readonly url: string;
  /** Final header list in sending order, without the signing headers the sender adds. */
  readonly headers: readonly ToolHeader[];
  readonly bodyFormat: ToolBodyFormat;
  /** Exact body text; null for GET and DELETE. */
  readonly body: string | null;
  readonly omittedParams: readonly string[];
  readonly missingRequired: readonly string[];
  readonly invalidParams: readonly string[];
  readonly unresolvedVariables: readonly string[];
  readonly targetCheck: TargetCheck;
  readonly wouldSend: boolean;
}

export const TOOL_EVENT_TYPE = 'tool_call';
export const DEFAULT_ACCEPT = 'application/json, */*;q=0.5';
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

// The sender owns framing, routing and the signature; a tool's value for these is never sent.
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

export function isReservedToolHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED_HEADERS.has(lower) || lower.startsWith('proxy-');
}

/** Builds the request of one invocation. Pure: no network, no DNS, no clock. */
export function buildToolRequest(spec: ToolRequestSpec): ToolRequest {
  const { tool } = spec;
  if (tool.endpoint === null || tool.method === null) throw new Error(`Tool ${tool.id} is not an http tool.`);
  const parameters = resolveParameters(tool.schema, spec.params);
  const log = newSubstitutionLog();
  const values: PlaceholderValues = {
    variables: spec.variables,
    params: { declared: new Set(tool.schema.map((p) => p.name)), collected: textValues(parameters.collected) },
  };
  const variablesOnly: PlaceholderValues = { variables: spec.variables, params: null };

  let url = substitute(tool.endpoint, values, encodeComponent, log);
  const fields = new Map<string, ParameterValue>();
  for (const [name, value] of parameters.collected) if (!log.consumed.has(name)) fields.set(name, value);
  for (const field of tool.staticFields) fields.set(field.key, substitute(field.value, variablesOnly, keep, log));

  const method = tool.method;
  const hasBody = method !== 'GET' && method !== 'DELETE';
  let body: string | null = null;
  if (!hasBody) url = withQuery(url, fields);
  else body = tool.bodyFormat === 'form' ? formBody(fields) : JSON.stringify(Object.fromEntries(fields));

  const headers = requestHeaders(spec, body === null ? null : tool.bodyFormat, log);
  const target = targetOf(url, spec.policy);
  return {
    method,
    url: target.href,
    headers,
    bodyFormat: tool.bodyFormat,
    body,
    omittedParams: parameters.omitted,
    missingRequired: parameters.missing,
    invalidParams: parameters.invalid,
    unresolvedVariables: [...log.unresolved],
    targetCheck: target.check,
    wouldSend: parameters.missing.length === 0 && parameters.invalid.length === 0 && target.check.status !== 'blocked',
  };
}

function requestHeaders(spec: ToolRequestSpec, bodyFormat: ToolBodyFormat | null, log: SubstitutionLog): ToolHeader[] {
  // Keyed case-insensitively: a later value replaces an earlier one in its place, as the sender does.
  const byName = new Map<string, ToolHeader>();
  const put = (name: string, value: string) => {
    const key = name.toLowerCase();
    const earlier = byName.get(key);
    byName.set(key, { name: earlier?.name ?? name, value });
  };
  put('Accept', DEFAULT_ACCEPT);
  put('User-Agent', spec.userAgent);
  put('X-Voiceplane-Event', TOOL_EVENT_TYPE);
  if (spec.callId !== null) put('X-Voiceplane-Call-Id', String(spec.callId));
  put('X-Voiceplane-Tool-Id', String(spec.tool.id));
  const variablesOnly: PlaceholderValues = { variables: spec.variables, params: null };
  for (const header of spec.tool.headers) {
    if (isReservedToolHeader(header.name)) continue;
    put(header.name, headerSafe(substitute(header.value, variablesOnly, keep, log)));
  }
  if (bodyFormat !== null && !byName.has('content-type'))
    put('Content-Type', bodyFormat === 'form' ? FORM_CONTENT_TYPE : JSON_CONTENT_TYPE);
  return [...byName.values()];
}

function textValues(collected: ReadonlyMap<string, ParameterValue>): Map<string, string> {
  const text = new Map<string, string>();
  for (const [name, value] of collected) text.set(name, String(value));
  return text;
}

function withQuery(url: string, fields: ReadonlyMap<string, ParameterValue>): string {
  if (fields.size === 0) return url;
  const pairs: string[] = [];
  for (const [key, value] of fields) pairs.push(`${encodeComponent(key)}=${encodeComponent(String(value))}`);
  const hashAt = url.indexOf('#');
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : url.slice(hashAt);
  const joiner = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${joiner}${pairs.join('&')}${fragment}`;
}

function formBody(fields: ReadonlyMap<string, ParameterValue>): string {
  const form = new URLSearchParams();
  for (const [key, value] of fields) form.append(key, String(value));
  return form.toString();
}

function targetOf(url: string, policy: TargetUrlPolicy): { href: string; check: TargetCheck } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { href: url, check: { scheme: '', host: '', status: 'blocked' } };
  }
  const verdict = checkParsedTargetUrl(parsed, policy);
  return {
    href: parsed.href,
    check: {
      scheme: parsed.protocol.slice(0, -1),
      host: parsed.hostname,
      status: verdict.ok ? 'unchecked' : 'blocked',
    },
  };
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A URI component; a lone surrogate (which encodeURIComponent throws on) becomes U+FFFD. */
function encodeComponent(value: string): string {
  return encodeURIComponent(value.replace(LONE_SURROGATE, '\ufffd'));
}

const keep = (value: string) => value;

// Header values: CR/LF would split the header (contract); other controls make the request invalid.
const HEADER_UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f]/g;

function headerSafe(value: string): string {
  return value.replace(HEADER_UNSAFE, '');
}
