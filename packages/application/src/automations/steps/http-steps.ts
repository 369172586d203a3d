import {
  connectionAuthHeader,
  isJsonObject,
  JsonValue,
  notesUrl,
  requestBody,
  retryAfterSeconds,
  StepAttemptOutcome,
  StepResult,
} from '@voiceplane/domain';
import { Clock } from '../../ports';
import { OutboundHttpClient, OutboundResponse } from '../../ports';
import { SecretCipher } from '../../common';
import { ToolGateway } from '../../tools';
import { ConnectionRepository } from '../ports';
import { actingStep, StepActor, StepHandler, stepWebhookId } from './step-handler';

/** `http.request` and `crm.push_note` wait 10 s. */
export const STEP_HTTP_TIMEOUT_MS = 10_000;
/** `X-Voiceplane-Event` of automation HTTP steps and connection checks. */
export const AUTOMATION_EVENT_TYPE = 'automation_http';

export interface HttpStepDeps {
  readonly http: OutboundHttpClient;
  readonly gateway: ToolGateway;
  readonly clock: Clock;
}

/** `http.request`: one signed request; a failed attempt carries what the run's retry schedule needs. */
export function httpRequestStep({ http, gateway, clock }: HttpStepDeps): StepHandler<'http.request'> {
  return actingStep(async (config, actor): Promise<StepResult> => {
    const omit = Array.isArray(config.omit_fields) ? (config.omit_fields as string[]) : [];
    const body = withTestMark(requestBody(config.body, omit), actor);
    const response = await http.send({
      method: config.method as 'POST',
      url: config.url as string,
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: STEP_HTTP_TIMEOUT_MS,
      eventType: AUTOMATION_EVENT_TYPE,
      signing: {
        secrets: await gateway.signingSecrets(actor.userId),
        webhookId: stepWebhookId(actor.runId, actor.stepName),
      },
    });
    if (response.ok)
      return {
        kind: 'ok',
        output: { status_code: response.statusCode, body: parsedBody(response) },
        attempt: attemptOf(response, clock),
      };
    return httpFailure(response, false, clock);
  });
}

/** `crm.push_note`: posts to the connection's notes path; a 401/403 marks the connection broken. */
export function pushNoteStep(
  deps: HttpStepDeps & { readonly connections: ConnectionRepository; readonly cipher: SecretCipher },
): StepHandler<'crm.push_note'> {
  const { http, gateway, clock, connections, cipher } = deps;
  return actingStep(async (config, actor): Promise<StepResult> => {
    const connectionId = config.connection_id as number;
    const connection = await connections.find(actor.userId, connectionId);
    if (connection === null || connection.status === 'broken')
      return { kind: 'failed', reason: 'connection_unusable', detail: String(connectionId) };
    const secret = connection.sealedAuthValue === null ? null : await cipher.decrypt(connection.sealedAuthValue);
    const auth = connectionAuthHeader(connection.authType, connection.authHeaderName, secret);
    const response = await http.send({
      method: 'POST',
      url: notesUrl(connection),
      headers: [{ name: 'Content-Type', value: 'application/json' }, ...(auth ? [auth] : [])],
      body: JSON.stringify(withTestMark(config.note, actor)),
      timeoutMs: STEP_HTTP_TIMEOUT_MS,
      eventType: AUTOMATION_EVENT_TYPE,
      signing: {
        secrets: await gateway.signingSecrets(actor.userId),
        webhookId: stepWebhookId(actor.runId, actor.stepName),
      },
    });
    if (response.ok)
      return { kind: 'ok', output: { status_code: response.statusCode }, attempt: attemptOf(response, clock) };
    if (response.statusCode === 401 || response.statusCode === 403) {
      await connections.recordCheck(connection.id, 'broken', `HTTP ${response.statusCode}`, clock.now());
    }
    return httpFailure(response, true, clock);
  });
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
  return {
    statusCode: response.statusCode,
    error: response.error,
    retryAfterSeconds: retryAfterSeconds(response.headers['retry-after'], clock.now()),
  };
}

function httpFailure(response: OutboundResponse, unauthorizedMatters: boolean, clock: Clock): StepResult {
  const attempt = attemptOf(response, clock);
  if (response.error === 'timeout') return { kind: 'failed', reason: 'timeout', detail: null, attempt };
  if (response.error === 'blocked_target') return { kind: 'failed', reason: 'blocked_target', detail: null, attempt };
  if (response.statusCode === null) return { kind: 'failed', reason: 'connection_failed', detail: null, attempt };
  const unauthorized = unauthorizedMatters && (response.statusCode === 401 || response.statusCode === 403);
  return {
    kind: 'failed',
    reason: unauthorized ? 'http_unauthorized' : 'http_status',
    detail: String(response.statusCode),
    attempt,
  };
}
