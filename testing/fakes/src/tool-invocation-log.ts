import { ToolCallResult } from '@voiceplane/domain';
import {
  InvocationClaim,
  KnowledgeSearchEntry,
  ToolInvocationLog,
  ToolInvocationRecord,
  ToolInvocationStart,
} from '@voiceplane/application';
import { copy } from './copy';

/** The function name a knowledge-base search is listed under, whichever way it was made. */
const SEARCH_NAME = 'search_knowledge_base';

function oldestFirst(records: ToolInvocationRecord[]): ToolInvocationRecord[] {
  return records.sort((a, b) => a.at.getTime() - b.at.getTime() || a.id.localeCompare(b.id));
}

interface Invocation {
  start: ToolInvocationStart;
  result: ToolCallResult | null;
}

/** The tool invocation log in memory; `record` writes at once, so nothing is ever pending. */
export class InMemoryToolInvocationLog implements ToolInvocationLog {
  private readonly invocations = new Map<string, Invocation>();
  private readonly searches: KnowledgeSearchEntry[] = [];
  private readonly chatTools: { conversationId: number; record: ToolInvocationRecord }[] = [];

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

  async listForCall(callId: number, limit: number): Promise<ToolInvocationRecord[]> {
    const tools = [...this.invocations.values()]
      .filter((i) => i.start.callId === callId && i.result !== null)
      .map(
        ({ start, result }): ToolInvocationRecord => ({
          id: start.id,
          toolId: start.toolId,
          name: start.name,
          ok: result!.ok,
          statusCode: result!.statusCode,
          durationMs: result!.durationMs,
          error: result!.error,
          at: new Date(start.at),
        }),
      );
    return latest(oldestFirst([...tools, ...this.searchesOf((e) => e.owner.callId === callId)]), limit);
  }

  async forgetCall(callId: number): Promise<void> {
    for (const [id, i] of this.invocations) if (i.start.callId === callId) this.invocations.delete(id);
    for (let k = this.searches.length - 1; k >= 0; k--)
      if (this.searches[k].owner.callId === callId) this.searches.splice(k, 1);
  }

  recordSearch(entry: KnowledgeSearchEntry): void {
    this.searches.push(copy(entry));
  }

  recordForConversation(
    conversationId: number,
    start: Omit<ToolInvocationStart, 'callId' | 'invocationId'>,
    result: ToolCallResult,
  ): void {
    this.chatTools.push({
      conversationId,
      record: {
        id: start.id,
        toolId: start.toolId,
        name: start.name,
        ok: result.ok,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error,
        at: new Date(start.at),
      },
    });
  }

  async listForConversation(conversationId: number, limit: number): Promise<ToolInvocationRecord[]> {
    const tools = this.chatTools.filter((t) => t.conversationId === conversationId).map((t) => copy(t.record));
    return latest(oldestFirst([...tools, ...this.searchesOf((e) => e.owner.conversationId === conversationId)]), limit);
  }

  private searchesOf(which: (e: KnowledgeSearchEntry) => boolean): ToolInvocationRecord[] {
    return this.searches.filter(which).map((e) => ({
      id: e.id,
      toolId: null,
      name: SEARCH_NAME,
      ok: true,
      statusCode: null,
      durationMs: e.durationMs,
      error: null,
      at: new Date(e.at),
      knowledge: copy(e.search),
    }));
  }

  private holderOf(callId: number, invocationId: string | null): Invocation | undefined {
    if (invocationId === null) return undefined;
    return [...this.invocations.values()].find(
      (i) => i.start.callId === callId && i.start.invocationId === invocationId,
    );
  }
}

const latest = <T>(oldestFirst: T[], limit: number): T[] => oldestFirst.slice(Math.max(0, oldestFirst.length - limit));
