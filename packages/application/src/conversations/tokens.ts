import { token } from '../common';
import type { ConversationQueries } from './conversation-queries';
import type { EndInactiveConversation } from './end-inactive-conversation';
import type { ConversationRepository } from './ports';
import type { ToggleAi } from './toggle-ai';

export const CONVERSATION_TOKENS = {
  ConversationRepository: token<ConversationRepository>('ConversationRepository'),
  ConversationQueries: token<ConversationQueries>('ConversationQueries'),
  ToggleAi: token<ToggleAi>('ToggleAi'),
  EndInactiveConversation: token<EndInactiveConversation>('EndInactiveConversation'),
} as const;
