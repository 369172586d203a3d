import { E164_PATTERN, isJsonObject, StepResult } from '@voiceplane/domain';
import { MakeCall } from '../../calls';
import { AutomationChatapp, DataTableRepository } from '../ports';
import { actingStep, StepHandler } from './step-handler';

/** `table.lookup`: the row whose key column holds the value; no row (or no table) fails the step. */
export function tableLookupStep(tables: DataTableRepository): StepHandler<'table.lookup'> {
  return actingStep(async (config, actor): Promise<StepResult> => {
    const tableId = config.table_id as number;
    const value = config.value;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const row = await tables.lookup(actor.userId, tableId, config.key_column as string, text);
    if (row === 'no_table')
      return { kind: 'failed', reason: 'record_gone', detail: `Table ${tableId}`, output: { found: false } };
    return row
      ? { kind: 'ok', output: { found: true, row: row.values } }
      : { kind: 'failed', reason: 'no_row', detail: text, output: { found: false } };
  });
}

/** `voice.make_call`: the call carries the run's id (how call-back loops are stopped and calls traced). */
export function makeCallStep(makeCall: MakeCall): StepHandler<'voice.make_call'> {
  return actingStep(async (config, actor): Promise<StepResult> => {
    const to = typeof config.to === 'string' ? config.to.trim() : '';
    if (!E164_PATTERN.test(to)) return { kind: 'failed', reason: 'invalid_phone', detail: String(config.to) };
    const variables: Record<string, string> = {};
    if (isJsonObject(config.variables)) {
      for (const [k, v] of Object.entries(config.variables))
        variables[k] = typeof v === 'string' ? v : JSON.stringify(v);
    }
    const placed = await makeCall.execute({
      userId: actor.userId,
      assistantId: config.assistant_id as number,
      phoneNumber: to,
      variables,
      automationRunId: actor.runId,
    });
    if (placed.ok) return { kind: 'ok', output: { call_id: placed.value.callId, status: 'initiated' } };
    if (placed.error === 'assistant_not_found')
      return { kind: 'failed', reason: 'record_gone', detail: `Assistant ${config.assistant_id}` };
    if (placed.error === 'insufficient_balance')
      return { kind: 'failed', reason: 'insufficient_balance', detail: null };
    if (placed.error === 'do_not_call') return { kind: 'failed', reason: 'do_not_call', detail: to };
    return { kind: 'failed', reason: 'dispatch_failed', detail: placed.error };
  });
}

/** `chatapp.send_template`; null until the chat-app capability is composed: the step then fails as `step_error`. */
export function sendTemplateStep(chatapp: AutomationChatapp | null): StepHandler<'chatapp.send_template'> {
  return actingStep(async (config, actor): Promise<StepResult> => {
    if (chatapp === null)
      return {
        kind: 'failed',
        reason: 'chatapp_error',
        detail: 'CHATAPP_UNAVAILABLE: Chat-app messaging is not available.',
      };
    const sent = await chatapp.sendTemplate({
      userId: actor.userId,
      senderId: config.sender_id as number,
      templateId: config.template_id as number,
      recipientPhone: String(config.to),
      variables: isJsonObject(config.variables) ? config.variables : {},
    });
    if (sent.ok) {
      const s = sent.value;
      return {
        kind: 'ok',
        output: {
          message_sid: s.messageSid,
          chatapp_message_id: s.chatappMessageId,
          conversation_id: s.conversationId,
          status: s.status,
        },
      };
    }
    return {
      kind: 'failed',
      reason: sent.error.code === 'record_gone' ? 'record_gone' : 'chatapp_error',
      detail: sent.error.detail,
    };
  });
}
