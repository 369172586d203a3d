import { llm, voice } from '@livekit/agents';
import {
  knowledgeOf,
  passagesResult,
  passagesSection,
  SEARCH_KNOWLEDGE_BASE,
  SEARCH_KNOWLEDGE_BASE_FUNCTION,
} from '@voiceplane/application';
import type { Passage, RuntimeConfig } from '@voiceplane/domain';
import type { ControlPlane, KnowledgePassage } from './control-plane';

type Log = { warn(fields: object, message: string): void };

const asPassages = (found: readonly KnowledgePassage[]): Passage[] =>
  found.map((p) => ({
    documentId: p.document_id,
    documentName: p.document,
    position: p.position,
    content: p.content,
    score: p.score,
  }));

/**
 * An assistant's knowledge base on a live call, read over the runtime search route (which logs
 * every search on the call). `prompt` mode: before each model turn the passages for the customer's
 * latest line join the instructions, as in text calls; `function_call` mode (and every realtime
 * model): the model gets `search_knowledge_base`. The words, the passage format and the function
 * are the conversation policy's, so a call reads the knowledge base exactly as a text call does.
 */
export class CallKnowledge {
  /** The customer line last looked up, and what it found: later model rounds of the same turn (after a tool) reuse it. */
  private lastLine: { readonly id: string; readonly section: string } | null = null;

  private constructor(
    private readonly callId: number,
    private readonly knowledgeBaseId: number,
    readonly mode: 'prompt' | 'function_call',
    private readonly controlPlane: ControlPlane,
    private readonly log: Log,
  ) {}

  /** Null when the assistant has no knowledge base. */
  static of(config: RuntimeConfig, callId: number, controlPlane: ControlPlane, log: Log): CallKnowledge | null {
    const kb = knowledgeOf(config);
    return kb === null ? null : new CallKnowledge(callId, kb.knowledgeBaseId, kb.mode, controlPlane, log);
  }

  /** The model's search function (`function_call` mode); none in `prompt` mode. */
  tools(): Record<string, ReturnType<typeof llm.tool>> {
    if (this.mode !== 'function_call') return {};
    return {
      [SEARCH_KNOWLEDGE_BASE]: llm.tool({
        description: SEARCH_KNOWLEDGE_BASE_FUNCTION.description,
        parameters: SEARCH_KNOWLEDGE_BASE_FUNCTION.parameters as unknown as Record<string, unknown>,
        execute: async (args: Record<string, unknown>) => {
          const query = typeof args?.query === 'string' ? args.query.trim() : '';
          if (query === '') return { error: 'invalid_arguments', message: 'The arguments must be a JSON object.' };
          return JSON.parse(passagesResult(await this.search(query, 'function_call'))) as unknown;
        },
      }),
    };
  }

  /**
   * `prompt` mode: the context the model reads this round, its instructions followed by the
   * passages for the customer's latest line. Without a customer line (the greeting) it is unchanged.
   */
  async withPassages(chatCtx: llm.ChatContext): Promise<llm.ChatContext> {
    if (this.mode !== 'prompt') return chatCtx;
    const line = [...chatCtx.items]
      .reverse()
      .find(
        (i): i is llm.ChatMessage =>
          i instanceof llm.ChatMessage && i.role === 'user' && (i.textContent ?? '').trim() !== '',
      );
    if (line === undefined) return chatCtx;
    if (this.lastLine?.id !== line.id)
      this.lastLine = { id: line.id, section: passagesSection(await this.search(line.textContent ?? '', 'prompt')) };
    const section = this.lastLine.section;
    if (section === '') return chatCtx;
    const ctx = chatCtx.copy();
    const at = ctx.items.findIndex((i) => i instanceof llm.ChatMessage && i.role === 'system');
    if (at < 0) return chatCtx;
    const instructions = ctx.items[at] as llm.ChatMessage;
    const items = [...ctx.items];
    items[at] = new llm.ChatMessage({
      role: 'system',
      id: instructions.id,
      content: `${instructions.textContent ?? ''}${section}`,
      createdAt: instructions.createdAt,
    });
    ctx.items = items;
    return ctx;
  }

  private async search(query: string, mode: 'prompt' | 'function_call'): Promise<Passage[]> {
    try {
      return asPassages(
        await this.controlPlane.searchKnowledge({
          call_id: this.callId,
          query,
          mode,
          knowledgebase_id: this.knowledgeBaseId,
        }),
      );
    } catch (e) {
      // The control plane is away: the customer still gets an answer, from the instructions alone.
      this.log.warn({ err: e, call_id: this.callId }, 'the knowledge base could not be searched');
      return [];
    }
  }
}

/** An agent whose model rounds read the knowledge base's passages (`prompt` mode). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a TypeScript mixin takes `any[]`
export function withKnowledge<A extends new (...args: any[]) => voice.Agent>(Base: A, knowledge: CallKnowledge): A {
  return class extends Base {
    override async llmNode(chatCtx: llm.ChatContext, toolCtx: llm.ToolContext, modelSettings: voice.ModelSettings) {
      return voice.Agent.default.llmNode(this, await knowledge.withPassages(chatCtx), toolCtx, modelSettings);
    }
  };
}
