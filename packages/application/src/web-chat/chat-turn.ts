import { Assistant, Conversation, roleOfSource, RuntimeTool, ToolCallResult, transcriptText } from '@voiceplane/domain';
import { CallConfigurations } from '../calls';
import { BuiltInRunner, ConversationBrain, TurnResult } from '../conversation-policy';
import { ChatMessage } from '../conversation-policy';
import { ConversationRepository } from '../conversations';
import { InvokeToolForConversation } from '../tools';

/** Turns of history the assistant reads. */
const HISTORY_TURNS = 30;
const TOOL_NOT_FOUND = JSON.stringify({ error: 'tool_not_found' });
const END_CALL = 'end_call';

/** What one web-chat answer reads: the one conversation policy, its configuration and tools, the chat's history. */
export interface ChatTurnDeps {
  readonly brain: ConversationBrain;
  readonly configurations: CallConfigurations;
  readonly tools: InvokeToolForConversation;
  readonly conversations: Pick<ConversationRepository, 'recentMessages'>;
}

/** The assistant's configuration for a chat: its instructions with the chat's variables. */
export function chatSetup(
  configurations: CallConfigurations,
  assistant: Assistant,
  variables: Readonly<Record<string, string>>,
) {
  return configurations.forStart({
    direction: 'inbound',
    channel: 'chatapp',
    customerPhone: '',
    assistant,
    variables,
    line: null,
  });
}

/**
 * The assistant's answer to the chat's last message, through the conversation policy: its
 * attached tools run through the gateway, and of the built-ins only `end_call`, which ends the
 * chat. `onText` gets the answer's pieces as the model writes them.
 */
export async function chatTurn(
  deps: ChatTurnDeps,
  conversation: Conversation,
  assistant: Assistant,
  onText: (delta: string, round: number) => void,
): Promise<TurnResult> {
  const [history, setup] = await Promise.all([
    deps.conversations.recentMessages(conversation.id, HISTORY_TURNS),
    chatSetup(deps.configurations, assistant, conversation.variables ?? {}),
  ]);
  const runTool = async (tool: RuntimeTool, params: Readonly<Record<string, unknown>>): Promise<ToolCallResult> => {
    const result = await deps.tools.execute({
      userId: conversation.userId,
      toolId: tool.id,
      attachedToolIds: assistant.toolIds,
      params,
      conversationRowId: conversation.id,
      subject: {
        callId: null,
        assistantId: assistant.id,
        customerPhone: '',
        assistantPhone: '',
        direction: 'inbound',
        channel: 'chatapp',
        conversationId: conversation.uuid,
        timezone: assistant.timezone,
        variables: conversation.variables ?? {},
        assistantVariables: assistant.variables,
      },
    });
    return result.ok
      ? result.value
      : {
          ok: false,
          statusCode: null,
          content: TOOL_NOT_FOUND,
          truncated: false,
          durationMs: 0,
          error: null,
          warnings: [],
        };
  };
  // Of the built-ins only `end_call` makes sense in a chat: it ends the conversation.
  const endCall: BuiltInRunner = async () => ({
    content: JSON.stringify({ ok: true, message: 'The conversation ends after this answer.' }),
    end: { reason: 'assistant_ended' },
  });
  return deps.brain.turn({
    setup: { ...setup, builtin_tools: setup.builtin_tools.filter((b) => b.type === END_CALL) },
    history: history.map((m): ChatMessage => ({ role: roleOfSource(m.source), content: transcriptText(m) })),
    runTool,
    runBuiltIn: endCall,
    logContext: { conversation_id: conversation.id },
    userId: conversation.userId,
    logOwner: { conversationId: conversation.id },
    onText,
  });
}
