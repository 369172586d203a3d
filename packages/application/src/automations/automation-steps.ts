import { createHash } from 'node:crypto';
import {
  AutomationStep, connectionAuthHeader, isJsonObject, JsonObject, JsonValue, notesUrl, requestBody, retryAfterSeconds, StepAttemptOutcome, StepResult, E164_PATTERN,
} from '@voiceplane/domain';
import { MakeCall } from '../calls/make-call';
import { Clock } from '../ports/clock';
import { Ids } from '../ports/ids';
import { OutboundHttpClient, OutboundResponse } from '../ports/outbound-http';
import { SecretCipher } from '../telephony/secret-cipher';
import { ToolGateway } from '../tools/tool-gateway';
import { AutomationChatapp, ConnectionRepository, DataTableRepository } from './ports';

/** `http.request` and `crm.push_note` wait 10 s. */
export const STEP_HTTP_TIMEOUT_MS = 10_000;
/** `X-Voiceplane-Event` of automation HTTP steps and connection checks. */
export const AUTOMATION_EVENT_TYPE = 'automation_http';

/** Who a step acts for, and whether the run is a test (test payloads carry `"test": true`). */
export interface StepActor {
  readonly userId: number;
  readonly isTest: boolean;
  readonly runId: string;
  /** The step being executed: with the run, what makes a step idempotent. */
  readonly stepName: string;
}

/**
 * The `webhook-id` of a step's requests: the same on every attempt of that step of that run, also
 * after another worker took the run over, so receivers de-duplicate (`msg_` + 22 base62).
 */
export function stepWebhookId(runId: string, stepName: string): string {
  const digest = createHash('sha256').update(`${runId}:${stepName}`).digest();
  let id = '';
  for (let i = 0; id.length < 22; i++) id += BASE62[digest[i] % 62];
  return `msg_${id}`;
}
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The steps that act on the world: each gets its configuration with every
 * expression already resolved and answers a `StepResult`. Nothing here throws for a refusal.
 */
export class AutomationSteps {
  constructor(
    private readonly http: OutboundHttpClient,
    private readonly gateway: ToolGateway,
    private readonly tables: DataTableRepository,
    private readonly connections: ConnectionRepository,
    private readonly cipher: SecretCipher,
    private readonly makeCall: MakeCall,
    /** Null until the chat-app capability is composed: chat-app steps then fail as `step_error`. */
    private readonly chatapp: AutomationChatapp | null,
    private readonly ids: Ids,
    private readonly clock: Clock,
  ) {}

  perform(step: AutomationStep, config: JsonObject, actor: StepActor): Promise<StepResult> {
    switch (step.kind) {
      case 'http.request':
        return this.request(config, actor);
      case 'table.lookup':
        return this.lookup(config, actor);
      case 'crm.push_note':
        return this.pushNote(config, actor);
      case 'voice.make_call':
        return this.call(config, actor);
      case 'chatapp.send_template':
        return this.sendTemplate(config, actor);
      default:
        throw new Error(`Step kind ${step.kind} needs nothing from the outside world.`);
    }
  }

  private async request(config: JsonObject, actor: StepActor): Promise<StepResult> {
    const omit = Array.isArray(config.omit_fields) ? (config.omit_fields as string[]) : [];
    const body = withTestMark(requestBody(config.body, omit), actor);
    const response = await this.http.send({
      method: config.method as 'POST',
      url: config.url as string,
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: STEP_HTTP_TIMEOUT_MS,
      eventType: AUTOMATION_EVENT_TYPE,
      signing: { secrets: await this.gateway.signingSecrets(actor.userId), webhookId: stepWebhookId(actor.runId, actor.stepName) },
    });
    if (response.ok) return { kind: 'ok', output: { status_code: response.statusCode, body: parsedBody(response) }, attempt: attemptOf(response, this.clock) };
    return httpFailure(response, false, this.clock);
  }

  private async lookup(config: JsonObject, actor: StepActor): Promise<StepResult> {
    const tableId = config.table_id as number;
    const value = config.value;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const row = await this.tables.lookup(actor.userId, tableId, config.key_column as string, text);
    if (row === 'no_table') return { kind: 'failed', reason: 'record_gone', detail: `Table ${tableId}`, output: { found: false } };
    return row ? { kind: 'ok', output: { found: true, row: row.values } } : { kind: 'failed', reason: 'no_row', detail: text, output: { found: false } };
  }

  private async pushNote(config: JsonObject, actor: StepActor): Promise<StepResult> {
    const connectionId = config.connection_id as number;
    const connection = await this.connections.find(actor.userId, connectionId);
    if (connection === null || connection.status === 'broken') return { kind: 'failed', reason: 'connection_unusable', detail: String(connectionId) };
    const secret = connection.sealedAuthValue === null ? null : await this.cipher.decrypt(connection.sealedAuthValue);
    const auth = connectionAuthHeader(connection.authType, connection.authHeaderName, secret);
    const response = await this.http.send({
      method: 'POST',
      url: notesUrl(connection),
      headers: [{ name: 'Content-Type', value: 'application/json' }, ...(auth ? [auth] : [])],
      body: JSON.stringify(withTestMark(config.note, actor)),
      timeoutMs: STEP_HTTP_TIMEOUT_MS,
      eventType: AUTOMATION_EVENT_TYPE,
      signing: { secrets: await this.gateway.signingSecrets(actor.userId), webhookId: stepWebhookId(actor.runId, actor.stepName) },
    });
    if (response.ok) return { kind: 'ok', output: { status_code: response.statusCode }, attempt: attemptOf(response, this.clock) };
    if (response.statusCode === 401 || response.statusCode === 403) {
      await this.connections.recordCheck(connection.id, 'broken', `HTTP ${response.statusCode}`, this.clock.now());
    }
    return httpFailure(response, true, this.clock);
  }

  private async call(config: JsonObject, actor: StepActor): Promise<StepResult> {
    const to = typeof config.to === 'string' ? config.to.trim() : '';
    if (!E164_PATTERN.test(to)) return { kind: 'failed', reason: 'invalid_phone', detail: String(config.to) };
    const variables: Record<string, string> = {};
    if (isJsonObject(config.variables)) {
      for (const [k, v] of Object.entries(config.variables)) variables[k] = typeof v === 'string' ? v : JSON.stringify(v);
    }
    const placed = await this.makeCall.execute({
      userId: actor.userId, assistantId: config.assistant_id as number, phoneNumber: to, variables, automationRunId: actor.runId,
    });
    if (placed.ok) return { kind: 'ok', output: { call_id: placed.value.callId, status: 'initiated' } };
    if (placed.error === 'assistant_not_found') return { kind: 'failed', reason: 'record_gone', detail: `Assistant ${config.assistant_id}` };
    if (placed.error === 'insufficient_balance') return { kind: 'failed', reason: 'insufficient_balance', detail: null };
    return { kind: 'failed', reason: 'dispatch_failed', detail: placed.error };
  }

  private async sendTemplate(config: JsonObject, actor: StepActor): Promise<StepResult> {
    if (this.chatapp === null) return { kind: 'failed', reason: 'chatapp_error', detail: 'CHATAPP_UNAVAILABLE: Chat-app messaging is not available.' };
    const sent = await this.chatapp.sendTemplate({
      userId: actor.userId,
      senderId: config.sender_id as number,
      templateId: config.template_id as number,
      recipientPhone: String(config.to),
      variables: isJsonObject(config.variables) ? config.variables : {},
    });
    if (sent.ok) {
      const s = sent.value;
      return { kind: 'ok', output: { message_sid: s.messageSid, chatapp_message_id: s.chatappMessageId, conversation_id: s.conversationId, status: s.status } };
    }
    return { kind: 'failed', reason: sent.error.code === 'record_gone' ? 'record_gone' : 'chatapp_error', detail: sent.error.detail };
  }
}

/** Test runs mark object payloads `"test": true` so receivers can tell them apart. */
function withTestMark(body: JsonValue | undefined, actor: StepActor): JsonValue | undefined {
  return actor.isTest && isJsonObject(body) ? { ...body, test: true } : body;
}

function parsedBody(response: OutboundResponse): JsonValue {
  try {
    return JSON.parse(response.body) as JsonValue;
  } catch {
    return response.body;
  }
}

function attemptOf(response: OutboundResponse, clock: Clock): StepAttemptOutcome {
  return { statusCode: response.statusCode, error: response.error, retryAfterSeconds: retryAfterSeconds(response.headers['retry-after'], clock.now()) };
}

function httpFailure(response: OutboundResponse, unauthorizedMatters: boolean, clock: Clock): StepResult {
  const attempt = attemptOf(response, clock);
  if (response.error === 'timeout') return { kind: 'failed', reason: 'timeout', detail: null, attempt };
  if (response.error === 'blocked_target') return { kind: 'failed', reason: 'blocked_target', detail: null, attempt };
  if (response.statusCode === null) return { kind: 'failed', reason: 'connection_failed', detail: null, attempt };
  const unauthorized = unauthorizedMatters && (response.statusCode === 401 || response.statusCode === 403);
  return { kind: 'failed', reason: unauthorized ? 'http_unauthorized' : 'http_status', detail: String(response.statusCode), attempt };
}
