import { CallStatus, isTerminal } from '@voiceplane/domain';
import { ToolCallContext, ToolCallContextSource } from '@voiceplane/application';
import { Database } from '../../database';
import type { CallRecord } from '../../records';
import { num } from '../rows';

/** The call's own columns, plus what the statement digs out of its `runtime_config` (json: values as stored). */
type ContextRow = Pick<
  CallRecord,
  | 'id'
  | 'user_id'
  | 'assistant_id'
  | 'status'
  | 'customer_phone'
  | 'assistant_phone'
  | 'direction'
  | 'channel'
  | 'conversation_id'
  | 'variables'
> & {
  timezone: string | null;
  assistant_variables: unknown;
  tool_ids: unknown[];
  knowledge_base_ids: unknown[];
};

/**
 * What the mid-call tool gateway knows about a call, from the configuration it started with. On
 * the live-call path: one statement that reads only what the gateway needs, never the transcript.
 */
export class TypeormCallToolContext implements ToolCallContextSource {
  constructor(private readonly db: Database) {}

  async forCall(callId: number): Promise<ToolCallContext | null> {
    const row = await this.db.one<ContextRow>(
      `SELECT id, user_id, assistant_id, status, customer_phone, assistant_phone, direction, channel, conversation_id, variables,
              runtime_config->'assistant'->>'timezone' AS timezone,
              runtime_config->'assistant'->'variables' AS assistant_variables,
              (SELECT coalesce(json_agg(t->'id'), '[]') FROM (
                 SELECT json_array_elements(runtime_config->'tools') AS t
                 UNION ALL
                 -- an assistant the call may be handed to brings its own tools (assistant_transfer)
                 SELECT json_array_elements(a->'tools') FROM json_array_elements(coalesce(runtime_config->'transfer_assistants', '[]')) a
               ) tools) AS tool_ids,
              (SELECT coalesce(json_agg(k), '[]') FROM (
                 SELECT runtime_config->'assistant'->'knowledgebase_id' AS k
                 UNION ALL
                 SELECT a->'assistant'->'knowledgebase_id' FROM json_array_elements(coalesce(runtime_config->'transfer_assistants', '[]')) a
               ) kbs WHERE k IS NOT NULL AND json_typeof(k) = 'number') AS knowledge_base_ids
         FROM calls WHERE id = $1`,
      [callId],
    );
    if (row === null) return null;
    return {
      callId: num(row.id),
      userId: num(row.user_id),
      assistantId: num(row.assistant_id),
      customerPhone: row.customer_phone,
      assistantPhone: row.assistant_phone ?? null,
      direction: row.direction,
      channel: row.channel,
      conversationId: row.conversation_id ?? null,
      timezone: row.timezone as string,
      variables: row.variables as Record<string, string>,
      assistantVariables: (row.assistant_variables as Record<string, string> | null) ?? {},
      ended: isTerminal(row.status as CallStatus),
      attachedToolIds: row.tool_ids.map(num),
      knowledgeBaseIds: row.knowledge_base_ids.map(num),
    };
  }
}
