import { err, ok, Passage, Result } from '@voiceplane/domain';
import { PASSAGES_PER_SEARCH } from './knowledge-lookup';
import { ToolCallContextSource } from '../tools';
import { KnowledgeLookup } from './knowledge-lookup';

export interface CallKnowledgeSearch {
  readonly callId: number;
  readonly query: string;
  /** How the agent uses the passages; kept in the log. */
  readonly mode: 'prompt' | 'function_call';
  /** Absent: the knowledge base of the call's assistant. */
  readonly knowledgeBaseId: number | null;
}

export type CallKnowledgeRefusal = 'call_not_found' | 'call_ended' | 'knowledge_base_not_found';

/**
 * The voice runtime's knowledge-base search: only a knowledge base the call's configuration names
 * (its assistant's, or that of an assistant it may be handed to) is searched, within the call's
 * account, and the search is logged on the call like a tool invocation.
 */
export class SearchKnowledgeForCall {
  constructor(
    private readonly calls: ToolCallContextSource,
    private readonly lookup: KnowledgeLookup,
  ) {}

  async execute(request: CallKnowledgeSearch): Promise<Result<Passage[], CallKnowledgeRefusal>> {
    const call = await this.calls.forCall(request.callId);
    if (call === null) return err('call_not_found');
    if (call.ended) return err('call_ended');
    const named = call.knowledgeBaseIds ?? [];
    const knowledgeBaseId = request.knowledgeBaseId ?? named[0] ?? null;
    if (knowledgeBaseId === null || !named.includes(knowledgeBaseId)) return err('knowledge_base_not_found');
    return ok(
      await this.lookup.search({
        userId: call.userId,
        knowledgeBaseId,
        question: request.query,
        limit: PASSAGES_PER_SEARCH,
        mode: request.mode,
        owner: { callId: call.callId },
      }),
    );
  }
}
