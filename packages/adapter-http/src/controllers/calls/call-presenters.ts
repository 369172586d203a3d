import { Call, CallSummary, ChatappCallReport, formatTranscript } from '@voiceplane/domain';
import { CallEventAnswer, ToolInvocationRecord } from '@voiceplane/application';
import { iso, isoOrNull } from '../../presenters/format';

function head(c: CallSummary) {
  return {
    id: c.id,
    assistant_id: c.assistantId,
    direction: c.direction,
    channel: c.channel,
    status: c.status,
    customer_phone: c.customerPhone,
    assistant_phone: c.assistantPhone,
    phone_number_id: c.phoneNumberId,
    sender_id: c.senderId,
    conversation_id: c.conversationId,
    automation_run_id: c.automationRunId,
    variables: c.variables,
    extracted_variables: c.extractedVariables,
    duration: c.duration,
    cost: c.cost,
    recording_url: c.recordingUrl,
    ended_reason: c.endedReason,
    campaign_id: c.campaignId,
    lead_id: c.leadId,
  };
}

function times(c: CallSummary) {
  return {
    created_at: iso(c.createdAt),
    answered_at: isoOrNull(c.answeredAt),
    finished_at: isoOrNull(c.finishedAt),
    updated_at: iso(c.updatedAt),
  };
}

/** List item: the record without the conversation and tool calls. */
export function presentCallSummary(c: CallSummary) {
  return { ...head(c), ...times(c) };
}

/**
 * One entry of a `tool_calls` log. A knowledge-base search has no tool (`tool_id: null`) and says
 * which knowledge base it read, what it looked up and the passages it returned, best first.
 */
export function presentToolInvocation(t: ToolInvocationRecord) {
  const entry = {
    id: t.id,
    tool_id: t.toolId,
    name: t.name,
    ok: t.ok,
    status_code: t.statusCode,
    duration_ms: t.durationMs,
    error: t.error,
    at: iso(t.at),
  };
  if (t.knowledge === undefined) return entry;
  return {
    ...entry,
    knowledgebase_id: t.knowledge.knowledgeBaseId,
    knowledgebase_mode: t.knowledge.mode,
    query: t.knowledge.query,
    passages: t.knowledge.passages.map((p) => ({
      rank: p.rank,
      document_id: p.documentId,
      document: p.documentName,
      position: p.position,
      score: p.score,
    })),
  };
}

/** The full record. */
/**
 * `report`: what the chat app itself reported about a chat-app call; shown as `chatapp_report` only
 * once there is one, so the answers of every other call stay as they were.
 */
export function presentCall(
  c: Call,
  toolCalls: readonly ToolInvocationRecord[],
  report: ChatappCallReport | null = null,
) {
  return {
    ...head(c),
    transcript: formatTranscript(c.transcript),
    transcript_items: c.transcript,
    tool_calls: toolCalls.map(presentToolInvocation),
    ...times(c),
    ...(report === null
      ? {}
      : {
          chatapp_report: {
            provider_call_id: report.metaCallId,
            connected_at: isoOrNull(report.connectAt),
            terminated_at: isoOrNull(report.terminateAt),
            duration: report.duration,
            status: report.status,
          },
        }),
  };
}

/** Answer of the runtime events route and of the sandbox `answer`/`finish`. */
export function presentEventAnswer(answer: CallEventAnswer, withDuplicateFlag: boolean) {
  return {
    ok: true,
    call: { id: answer.callId, status: answer.status },
    ...(withDuplicateFlag && answer.duplicate ? { duplicate: true } : {}),
  };
}
