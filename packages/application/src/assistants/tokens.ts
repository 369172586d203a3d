import { token } from '../shared/token';
import type { AssistantWebhooks, ChangeAssistantStatus, DeleteAssistant } from './assistant-lifecycle';
import type { AssistantRepository, CatalogRepository, EventTypeRepository } from './ports';
import type { KnowledgeBaseRepository } from '../knowledge-bases/ports';
import type { SaveAssistant } from './save-assistant';

export const ASSISTANT_TOKENS = {
  AssistantRepository: token<AssistantRepository>('AssistantRepository'),
  CatalogRepository: token<CatalogRepository>('CatalogRepository'),
  KnowledgeBaseRepository: token<KnowledgeBaseRepository>('KnowledgeBaseRepository'),
  EventTypeRepository: token<EventTypeRepository>('EventTypeRepository'),
  SaveAssistant: token<SaveAssistant>('SaveAssistant'),
  ChangeAssistantStatus: token<ChangeAssistantStatus>('ChangeAssistantStatus'),
  AssistantWebhooks: token<AssistantWebhooks>('AssistantWebhooks'),
  DeleteAssistant: token<DeleteAssistant>('DeleteAssistant'),
} as const;
