import { ToolCallResult } from '@voiceplane/domain';
import { InvocationClaim, ToolInvocationLog, ToolInvocationRecord, ToolInvocationStart } from '@voiceplane/application';
import { copy } from './copy';

interface Invocation {
  start: ToolInvocationStart;
  result: ToolCallResult | null;
}

/** The tool invocation log in memory; `record` writes at once, so nothing is ever pending. */
export class InMemoryToolInvocationLog implements ToolInvocationLog {
  private readonly invocations = new Map<string, Invocation>();

  async claim(start: ToolInvocationStart, staleBefore: Date): Promise<InvocationClaim> {
    const holder = this.holderOf(start.callId, start.invocationId);
    if (holder !== undefined && (holder.result !== null || holder.start.at.getTime() >= staleBefore.getTime())) {
      return { claimed: false, result: copy(holder.result) };
    }
    // A holder that never finished in time is lost: the new start takes its place.
    if (holder !== undefined) this.invocations.delete(holder.start.id);
    this.invocations.set(start.id, { start: copy(start), result: null });
    return { claimed: true };
  }

  record(start: ToolInvocationStart, result: ToolCallResult): void {
    if (start.invocationId === null) {
      this.invocations.set(start.id, { start: copy(start), result: copy(result) });
      return;
    }
    // Gone: a retry took the invocation over, and its own outcome is the one kept.
    const claimed = this.invocations.get(start.id);
    if (claimed !== undefined) claimed.result = copy(result);
  }

  async flush(): Promise<void> {}

  async resultOf(callId: number, invocationId: string): Promise<ToolCallResult | null> {
    return copy(this.holderOf(callId, invocationId)?.result ?? null);
  }

  async listForCall(callId: number): Promise<ToolInvocationRecord[]> {
    return [...this.invocations.values()]
      .filter((i) => i.start.callId === callId && i.result !== null)
      .sort((a, b) => a.start.at.getTime() - b.start.at.getTime() || a.start.id.localeCompare(b.start.id))
      .map(({ start, result }) => ({
        id: start.id, toolId: start.toolId, name: start.name, ok: result!.ok, statusCode: result!.statusCode,
        durationMs: result!.durationMs, error: result!.error, at: new Date(start.at),
      }));
  }

  private holderOf(callId: number, invocationId: string | null): Invocation | undefined {
    if (invocationId === null) return undefined;
    return [...this.invocations.values()].find((i) => i.start.callId === callId && i.start.invocationId === invocationId);
  }
}
