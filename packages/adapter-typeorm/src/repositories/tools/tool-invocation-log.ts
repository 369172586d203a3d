import { ToolCallResult } from '@voiceplane/domain';
import { InvocationClaim, ToolInvocationLog, ToolInvocationRecord, ToolInvocationStart } from '@voiceplane/application';
import { Database } from '../../database';
import { num, numOrNull } from '../rows';

function toRecord(r: Record<string, unknown>): ToolInvocationRecord {
  return {
    id: r.id as string,
    toolId: num(r.tool_id),
    name: r.name as string,
    ok: r.ok as boolean,
    statusCode: numOrNull(r.status_code),
    durationMs: num(r.duration_ms),
    error: (r.error as string) ?? null,
    at: new Date(r.created_at as string),
  };
}

/** Where a write that failed in the background is reported (pino's `error` fits). */
export interface InvocationLogErrors {
  error(details: Record<string, unknown>, message: string): void;
}

export class TypeormToolInvocationLog implements ToolInvocationLog {
  /** Writes started by `record` and not yet finished, by call. */
  private readonly pending = new Map<number, Set<Promise<void>>>();

  constructor(private readonly db: Database, private readonly errors?: InvocationLogErrors) {}

  async claim(start: ToolInvocationStart, staleBefore: Date): Promise<InvocationClaim> {
    // Raw SQL, a conditional upsert: insert, or take over a holder that never finished; RETURNING says which.
    const taken = await this.db.one(
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
      this.errors?.error({ err: error, invocation: start.id, call: start.callId }, 'recording a tool invocation failed');
    });
    let ofCall = this.pending.get(start.callId);
    if (ofCall === undefined) this.pending.set(start.callId, (ofCall = new Set()));
    ofCall.add(write);
    void write.finally(() => {
      ofCall.delete(write);
      if (ofCall.size === 0 && this.pending.get(start.callId) === ofCall) this.pending.delete(start.callId);
    });
  }

  async flush(): Promise<void> {
    await Promise.all([...this.pending.values()].flatMap((writes) => [...writes]));
  }

  async resultOf(callId: number, invocationId: string): Promise<ToolCallResult | null> {
    await this.settled(callId);
    const row = await this.db.one<{ result: ToolCallResult | null }>(
      `SELECT result FROM tool_invocations WHERE call_id = $1 AND invocation_id = $2`,
      [callId, invocationId],
    );
    return row?.result ?? null;
  }

  async listForCall(callId: number): Promise<ToolInvocationRecord[]> {
    await this.settled(callId);
    const rows = await this.db.query(
      `SELECT id, tool_id, name, ok, status_code, duration_ms, error, created_at FROM tool_invocations
        WHERE call_id = $1 AND completed_at IS NOT NULL ORDER BY created_at, id`,
      [callId],
    );
    return rows.map(toRecord);
  }

  private async settled(callId: number): Promise<void> {
    const writes = this.pending.get(callId);
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
