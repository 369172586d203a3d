import { BuiltInTool, RuntimeTool, ToolCallResult } from '@voiceplane/domain';
import { CatalogRepository } from '../assistants';
import { WorkLogger } from '../events';
import { Clock } from '../ports';
import { composeInstructions, ConversationSetup } from './instructions';
import { ChatMessage, ModelToolCall, ReplyGenerator } from './ports';
import { parseToolArguments, resolveToolCall, toolFunctions } from './tool-functions';
import { KnowledgeLookup } from '../knowledge-bases';
import { InvocationOwner } from '../tools';
import {
  knowledgeOf,
  latestCustomerLine,
  PASSAGES_PER_SEARCH,
  passagesResult,
  passagesSection,
  SEARCH_KNOWLEDGE_BASE,
  SEARCH_KNOWLEDGE_BASE_FUNCTION,
} from './knowledge-passages';

/**
 * Model answers one customer line may take: each round is one model request, after which the
 * functions it called run and their results go back. A model still calling functions after the
 * last round is looping: the customer gets the fallback instead of an endless wait.
 */
export const MAX_MODEL_ROUNDS = 6;

/** What the customer hears or reads when the model gave nothing usable. */
export const FALLBACK_REPLY = 'Sorry, I did not get that. Could you say it again?';

/** Runs an attached mid-call tool through the tool gateway (signed, guarded, timed out, logged). */
export type MidCallToolRunner = (
  tool: RuntimeTool,
  params: Readonly<Record<string, unknown>>,
) => Promise<ToolCallResult>;

/** What a built-in did: the text the model reads, and whether the conversation ends with it. */
export interface BuiltInOutcome {
  readonly content: string;
  /** False when the built-in was refused (no such colleague, nothing to book with); reported as the call's `ok`. Default true. */
  readonly ok?: boolean;
  /** The call ends after this answer (`end_call`, a transfer). */
  readonly end?: { readonly reason: string } | null;
  /**
   * The turn stops after this round without asking the model again: the conversation goes on,
   * but what comes next is not this model's answer (another assistant took over, or the
   * customer's keys are awaited).
   */
  readonly stop?: boolean;
}

/** Carries out a built-in tool on the medium at hand (a text call, a phone call). */
export type BuiltInRunner = (builtin: BuiltInTool, args: Readonly<Record<string, unknown>>) => Promise<BuiltInOutcome>;

export interface TurnRequest {
  readonly setup: ConversationSetup;
  /** The conversation so far, oldest first; the last message is the customer's new line. */
  readonly history: readonly ChatMessage[];
  readonly runTool: MidCallToolRunner;
  /** Null: built-in tools are not offered (a chat has no call to end or transfer). */
  readonly runBuiltIn: BuiltInRunner | null;
  /** Names the conversation in logged warnings (`call_id`, `conversation_id`). */
  readonly logContext: Readonly<Record<string, unknown>>;
  /** The account the conversation belongs to: its knowledge base is searched only within it. Absent: no knowledge base is read. */
  readonly userId?: number;
  /** Where the knowledge-base searches of this turn are logged (the call, the chat conversation); absent: not logged. */
  readonly logOwner?: InvocationOwner;
  /**
   * Pieces of each round's answer as the model writes them (a live view shows the reply growing);
   * a round that ends in function calls is followed by another, whose text replaces it. Absent:
   * the model is asked for whole answers.
   */
  readonly onText?: (delta: string, round: number) => void;
}

/** One function the model called during a turn, as it went. */
export interface TurnToolCall {
  readonly name: string;
  /** `knowledge`: passages retrieved from the assistant's knowledge base (as a function, or for the instructions). */
  readonly kind: 'tool' | 'builtin' | 'knowledge' | 'unknown';
  readonly ok: boolean;
  /** HTTP status of a mid-call tool's answer; null for the rest. */
  readonly statusCode: number | null;
  /** What the model read back. */
  readonly content: string;
  /** The arguments it ran with; absent when they could not be read (a made-up function, arguments that are not an object). */
  readonly arguments?: Readonly<Record<string, unknown>>;
}

export interface TurnResult {
  /** The assistant's answer; empty when it ended the call without a word. */
  readonly reply: string;
  readonly toolCalls: readonly TurnToolCall[];
  /** Set when a built-in ended the conversation. */
  readonly end: { readonly reason: string } | null;
  /** The model gave nothing usable (empty answer, or still calling functions at the round limit). */
  readonly fallback: boolean;
}

const UNKNOWN_FUNCTION = JSON.stringify({ error: 'unknown_function', message: 'No function has this name.' });
const INVALID_ARGUMENTS = JSON.stringify({
  error: 'invalid_arguments',
  message: 'The arguments must be a JSON object.',
});

/**
 * The conversation policy's turn loop, the one way an assistant answers a customer wherever it
 * talks: the assistant's instructions and functions, then bounded rounds of model answer →
 * functions run → results back. A failing tool is just a result the model reads (the conversation
 * goes on); only the model itself failing throws, before anything is answered.
 */
export class ConversationBrain {
  constructor(
    private readonly generator: ReplyGenerator,
    private readonly catalog: CatalogRepository,
    private readonly clock: Clock,
    private readonly log: WorkLogger,
    private readonly knowledge: KnowledgeLookup | null = null,
  ) {}

  async turn(request: TurnRequest): Promise<TurnResult> {
    const { setup } = request;
    const offered = request.runBuiltIn === null ? { ...setup, builtin_tools: [] } : setup;
    const kb = this.knowledge && request.userId !== undefined ? knowledgeOf(setup) : null;
    const tools =
      kb?.mode === 'function_call'
        ? [...toolFunctions(offered), SEARCH_KNOWLEDGE_BASE_FUNCTION]
        : toolFunctions(offered);
    const model = await this.modelName(setup);
    const toolCalls: TurnToolCall[] = [];
    let instructions = composeInstructions(setup, this.clock.now());
    const question = kb?.mode === 'prompt' ? latestCustomerLine(request.history) : null;
    if (kb && question !== null) {
      const passages = await this.search(request, kb.knowledgeBaseId, question, 'prompt');
      instructions += passagesSection(passages);
      toolCalls.push({
        name: SEARCH_KNOWLEDGE_BASE,
        kind: 'knowledge',
        ok: true,
        statusCode: null,
        content: passagesResult(passages),
      });
    }
    const messages: ChatMessage[] = [{ role: 'system', content: instructions }, ...request.history];

    for (let round = 1; round <= MAX_MODEL_ROUNDS; round += 1) {
      const answer = await this.generator.nextTurn({
        model,
        temperature: setup.assistant.llm_temperature,
        messages,
        tools,
        ...(request.onText ? { onText: (delta: string) => request.onText?.(delta, round) } : {}),
      });
      const text = answer.content?.trim() ?? '';
      if (answer.toolCalls.length === 0) {
        if (text !== '') return { reply: text, toolCalls, end: null, fallback: false };
        this.log.warn(
          { ...request.logContext, round },
          'the language model answered nothing; the customer gets the fallback reply',
        );
        return { reply: FALLBACK_REPLY, toolCalls, end: null, fallback: true };
      }
      if (round === MAX_MODEL_ROUNDS) break;
      messages.push({ role: 'assistant', content: answer.content, toolCalls: answer.toolCalls });
      let end: { reason: string } | null = null;
      let stop = false;
      for (const call of answer.toolCalls) {
        const done = await this.run(offered, call, request);
        toolCalls.push(done.report);
        messages.push({ role: 'tool', toolCallId: call.id, content: done.report.content });
        end ??= done.end;
        stop ||= done.stop;
      }
      if (end !== null || stop) return { reply: text, toolCalls, end, fallback: false };
    }
    this.log.warn(
      { ...request.logContext, rounds: MAX_MODEL_ROUNDS, tool_calls: toolCalls.length },
      'the language model kept calling functions past the round limit; the customer gets the fallback reply',
    );
    return { reply: FALLBACK_REPLY, toolCalls, end: null, fallback: true };
  }

  private modelName(setup: ConversationSetup): Promise<string> {
    return textModelName(this.catalog, setup.assistant);
  }

  private search(request: TurnRequest, knowledgeBaseId: number, question: string, mode: 'prompt' | 'function_call') {
    return (this.knowledge as KnowledgeLookup).search({
      userId: request.userId as number,
      knowledgeBaseId,
      question,
      limit: PASSAGES_PER_SEARCH,
      mode,
      owner: request.logOwner ?? null,
    });
  }

  private async run(
    setup: ConversationSetup,
    call: ModelToolCall,
    request: TurnRequest,
  ): Promise<{ report: TurnToolCall; end: { reason: string } | null; stop: boolean }> {
    const kb = this.knowledge && request.userId !== undefined ? knowledgeOf(setup) : null;
    if (call.name === SEARCH_KNOWLEDGE_BASE && kb?.mode === 'function_call') {
      const args = parseToolArguments(call.arguments);
      const query = typeof args?.query === 'string' ? args.query.trim() : '';
      if (query === '')
        return {
          report: { name: call.name, kind: 'knowledge', ok: false, statusCode: null, content: INVALID_ARGUMENTS },
          end: null,
          stop: false,
        };
      const passages = await this.search(request, kb.knowledgeBaseId, query, 'function_call');
      return {
        report: {
          name: call.name,
          kind: 'knowledge',
          ok: true,
          statusCode: null,
          content: passagesResult(passages),
          arguments: args ?? {},
        },
        end: null,
        stop: false,
      };
    }
    const resolved = resolveToolCall(setup, call.name);
    if (resolved === null)
      return {
        report: { name: call.name, kind: 'unknown', ok: false, statusCode: null, content: UNKNOWN_FUNCTION },
        end: null,
        stop: false,
      };
    const args = parseToolArguments(call.arguments);
    if (args === null)
      return {
        report: { name: call.name, kind: resolved.kind, ok: false, statusCode: null, content: INVALID_ARGUMENTS },
        end: null,
        stop: false,
      };
    if (resolved.kind === 'tool') {
      const result = await request.runTool(resolved.tool, args);
      return {
        report: {
          name: call.name,
          kind: 'tool',
          ok: result.ok,
          statusCode: result.statusCode,
          content: result.content,
          arguments: args,
        },
        end: null,
        stop: false,
      };
    }
    const outcome = await (request.runBuiltIn as BuiltInRunner)(resolved.builtin, args);
    return {
      report: {
        name: call.name,
        kind: 'builtin',
        ok: outcome.ok ?? true,
        statusCode: null,
        content: outcome.content,
        arguments: args,
      },
      end: outcome.end ?? null,
      stop: outcome.stop ?? false,
    };
  }
}

/**
 * The model a text turn or an evaluation of the assistant uses: its chat fallback model when it has
 * one (a multimodal assistant's text model), else its LLM; `default` (the generator's own) when
 * the catalogue does not know it.
 */
export async function textModelName(
  catalog: CatalogRepository,
  assistant: Pick<ConversationSetup['assistant'], 'llm_model_id' | 'chat_llm_fallback_id'>,
): Promise<string> {
  const id = assistant.chat_llm_fallback_id ?? assistant.llm_model_id;
  return (await catalog.catalog()).models.find((m) => m.id === id)?.name ?? 'default';
}
