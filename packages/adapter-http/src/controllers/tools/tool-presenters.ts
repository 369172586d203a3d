import { Tool, ToolCallResult, ToolRequest } from '@voiceplane/domain';
import { iso } from '../../presenters/format';

/** The tool record, fields in the documented order. */
export function presentTool(tool: Tool) {
  return {
    id: tool.id,
    name: tool.name,
    description: tool.description,
    type: tool.type,
    endpoint: tool.endpoint,
    method: tool.method,
    body_format: tool.bodyFormat,
    timeout: tool.timeout,
    headers: tool.headers.map((h) => ({ name: h.name, value: h.value })),
    static_fields: tool.staticFields.map((f) => ({ key: f.key, value: f.value })),
    schema: tool.schema.map((p) => ({ name: p.name, type: p.type, description: p.description, required: p.required })),
    automation_id: tool.automationId,
    created_at: iso(tool.createdAt),
    updated_at: iso(tool.updatedAt),
  };
}

const AT_SEND_TIME = '<generated at send time>';

/** Render data. The signing headers are added by the sender; `webhookId` when one was used. */
export function presentToolRequest(request: ToolRequest, webhookId: string | null = null) {
  return {
    method: request.method,
    url: request.url,
    headers: [
      ...request.headers.map((h) => ({ name: h.name, value: h.value })),
      { name: 'webhook-id', value: webhookId ?? AT_SEND_TIME },
      { name: 'webhook-timestamp', value: AT_SEND_TIME },
      { name: 'webhook-signature', value: AT_SEND_TIME },
    ],
    body_format: request.bodyFormat,
    body: request.body,
    omitted_params: request.omittedParams,
    missing_required: request.missingRequired,
    invalid_params: request.invalidParams,
    unresolved_variables: request.unresolvedVariables,
    would_send: request.wouldSend,
    target_check: {
      scheme: request.targetCheck.scheme,
      host: request.targetCheck.host,
      status: request.targetCheck.status,
    },
  };
}

/** The gateway result. */
export function presentToolCallResult(result: ToolCallResult) {
  return {
    ok: result.ok,
    status_code: result.statusCode,
    content: result.content,
    truncated: result.truncated,
    duration_ms: result.durationMs,
    error: result.error,
    warnings: result.warnings,
  };
}
