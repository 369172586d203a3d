import { ToolCallResult } from '@voiceplane/domain';
import {
  InvocationClaim,
  InvocationOwner,
  KnowledgeSearchDetail,
  KnowledgeSearchEntry,
  ToolInvocationLog,
  ToolInvocationRecord,
  ToolInvocationStart,
  WorkLogger,
} from '@voiceplane/application';
import { Database } from '../../database';
import type { StoredToolInvocationRecord } from '../../records';
import { num, numOrNull } from '../rows';

const COLUMNS =
  'id, tool_id, knowledge_base_id, name, ok, status_code, duration_ms, error, created_at, CASE WHEN knowledge_base_id IS NOT NULL THEN result END AS search';

/** COLUMNS: the invocation's columns read back, and its `result` as `search` when it was a knowledge-base search (else null). */
type InvocationRow = Pick<
  StoredToolInvocationRecord,
  'id' | 'tool_id' | 'knowledge_base_id' | 'name' | 'ok' | 'status_code' | 'duration_ms' | 'error' | 'created_at'
> & { search: unknown };

/** Listed invocations are completed ones, whose outcome columns are set. */
function toRecord(r: InvocationRow): ToolInvocationRecord {
  const record: ToolInvocationRecord = {
    id: r.id,
    toolId: numOrNull(r.tool_id),
    name: r.name,
    ok: r.ok as boolean,
    statusCode: numOrNull(r.status_code),
    durationMs: num(r.duration_ms),
    error: r.error ?? null,
    at: new Date(r.created_at),
  };
  if (r.knowledge_base_id === null || r.knowledge_base_id === undefined) return record;
  const stored = r.search as Omit<KnowledgeSearchDetail, 'knowledgeBaseId'>;
  return {
    ...record,
    knowledge: {
      knowledgeBaseId: num(r.knowledge_base_id),
      mode: stored.mode,
      query: stored.query,
      passages: stored.passages,
    },
  };
}

/** The function name a knowledge-base search is listed under, whichever way it was made. */
const SEARCH_NAME = 'search_knowledge_base';

const ownerKey = (owner: InvocationOwner): string =>
  owner.callId !== undefined ? `call:${owner.callId}` : `conversation:${owner.conversationId}`;

/** Where a write that failed in the background is reported (pino's `error` fits). */
export type InvocationLogErrors = Pick<WorkLogger, 'error'>;

export class TypeormToolInvocationLog implements ToolInvocationLog {
  /** Writes started by `record` and `recordSearch` and not yet finished, by call or conversation. */
  private readonly pending = new Map<string, Set<Promise<void>>>();

  constructor(
    private readonly db: Database,
    private readonly errors?: InvocationLogErrors,
  ) {}

  async claim(start: ToolInvocationStart, staleBefore: Date): Promise<InvocationClaim> {
    // Raw SQL, a conditional upsert: insert, or take over a holder that never finished; RETURNING says which.
    const taken = await this.db.one<Pick<StoredToolInvocationRecord, 'id'>>(
      `INSERT INTO tool_invocations (id, call_id, user_id, tool_id, name, invocation_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (call_id, invocation_id) WHERE invocation_id IS NOT NULL DO UPDATE
          SET id = EXCLUDED.id, user_id = EXCLUDED.user_id, tool_id = EXCLUDED.tool_id, name = EXCLUDED.name, created_at = EXCLUDED.created_at
        WHERE tool_invocations.completed_at IS NULL AND tool_invocations.created_at < $8
       RETURNING id`,
      [start.id, start.callId, start.userId, start.toolId, start.name, start.invocationId, start.at, staleBefore],
    );
    if (taken !== null) return { claimed: true };
    return { claimed: false, result: await this.resultOf(start.callId, start.invocationId as string) };
  }

  record(start: ToolInvocationStart, result: ToolCallResult): void {
    const write = this.write(start, result).catch((error: unknown) => {
      this.errors?.error(
        { err: error, invocation: start.id, call: start.callId },
        'recording a tool invocation failed',
      );
    });
    this.track(ownerKey({ callId: start.callId }), write);
  }

  recordForConversation(
    conversationId: number,
    start: Omit<ToolInvocationStart, 'callId' | 'invocationId'>,
    result: ToolCallResult,
  ): void {
    const write = this.db
      .query<never>(
        `INSERT INTO tool_invocations (id, conversation_id, user_id, tool_id, name, ok, status_code, duration_ms, error, result, created_at, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, now())`,
        [
          start.id,
          conversationId,
          start.userId,
          start.toolId,
          start.name,
          result.ok,
          result.statusCode,
          result.durationMs,
          result.error,
          JSON.stringify(result),
          start.at,
        ],
      )
      .then(
        () => undefined,
        (error: unknown) => {
          this.errors?.error(
            { err: error, invocation: start.id, conversation: conversationId },
            'recording a chat tool invocation failed',
          );
        },
      );
    this.track(ownerKey({ conversationId }), write);
  }

  recordSearch(entry: KnowledgeSearchEntry): void {
    const { knowledgeBaseId, ...search } = entry.search;
    const write = this.db
      .query<never>(
        `INSERT INTO tool_invocations (id, call_id, conversation_id, user_id, knowledge_base_id, name, ok, duration_ms, result, created_at, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, true, $7, $8::jsonb, $9, now())`,
        [
          entry.id,
          entry.owner.callId ?? null,
          entry.owner.conversationId ?? null,
          entry.userId,
          knowledgeBaseId,
          SEARCH_NAME,
          entry.durationMs,
          JSON.stringify(search),
          entry.at,
        ],
      )
      .then(
        () => undefined,
        (error: unknown) => {
          this.errors?.error(
            { err: error, invocation: entry.id, ...entry.owner },
            'recording a knowledge-base search failed',
          );
        },
      );
    this.track(ownerKey(entry.owner), write);
  }

  async listForConversation(conversationId: number, limit: number): Promise<ToolInvocationRecord[]> {
    await this.settled(ownerKey({ conversationId }));
    const rows = await this.db.query<InvocationRow>(latestFirstThenOldest('conversation_id'), [conversationId, limit]);
    return rows.map(toRecord);
  }

  private track(key: string, write: Promise<void>): void {
    let writes = this.pending.get(key);
    if (writes === undefined) this.pending.set(key, (writes = new Set()));
    const of = writes;
    of.add(write);
    void write.finally(() => {
      of.delete(write);
      if (of.size === 0 && this.pending.get(key) === of) this.pending.delete(key);
    });
  }

  async flush(): Promise<void> {
    await Promise.all([...this.pending.values()].flatMap((writes) => [...writes]));
  }

  async resultOf(callId: number, invocationId: string): Promise<ToolCallResult | null> {
    await this.settled(ownerKey({ callId }));
    const row = await this.db.one<{ result: ToolCallResult | null }>(
      `SELECT result FROM tool_invocations WHERE call_id = $1 AND invocation_id = $2`,
      [callId, invocationId],
    );
    return row?.result ?? null;
  }

  async listForCall(callId: number, limit: number): Promise<ToolInvocationRecord[]> {
    await this.settled(ownerKey({ callId }));
    const rows = await this.db.query<InvocationRow>(latestFirstThenOldest('call_id'), [callId, limit]);
    return rows.map(toRecord);
  }

  async forgetCall(callId: number): Promise<void> {
    await this.settled(ownerKey({ callId }));
    await this.db.query(`DELETE FROM tool_invocations WHERE call_id = $1`, [callId]);
  }

  private async settled(key: string): Promise<void> {
    const writes = this.pending.get(key);
    if (writes !== undefined) await Promise.all([...writes]);
  }

  private async write(start: ToolInvocationStart, result: ToolCallResult): Promise<void> {
    const outcome = [result.ok, result.statusCode, result.durationMs, result.error, JSON.stringify(result)];
    if (start.invocationId === null) {
      await this.db.query(
        `INSERT INTO tool_invocations (id, call_id, user_id, tool_id, name, ok, status_code, duration_ms, error, result, created_at, completed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, now())`,
        [start.id, start.callId, start.userId, start.toolId, start.name, ...outcome, start.at],
      );
      return;
    }
    // No row left means a retry took the invocation over; its own outcome will be the one kept.
    await this.db.query(
      `UPDATE tool_invocations SET ok = $2, status_code = $3, duration_ms = $4, error = $5, result = $6::jsonb, completed_at = now()
        WHERE id = $1`,
      [start.id, ...outcome],
    );
  }
}

/** The latest `$2` finished invocations of the owner `$1`, oldest first. */
function latestFirstThenOldest(owner: 'call_id' | 'conversation_id'): string {
  return `SELECT * FROM (
            SELECT ${COLUMNS} FROM tool_invocations WHERE ${owner} = $1 AND completed_at IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT $2
          ) latest ORDER BY created_at, id`;
}
