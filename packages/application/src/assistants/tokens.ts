import { token } from '../common';
import type { AdministerAssistants } from './administer-assistants';
import type { AssistantWebhooks, ChangeAssistantStatus, DeleteAssistant } from './assistant-lifecycle';
import type { AssistantQueries } from './assistant-queries';
import type { ReferenceData } from './reference-data';
import type { AssistantRepository, CatalogRepository, EventTypeRepository } from './ports';
import type { KnowledgeBaseRepository } from '../knowledge-bases';
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
  AssistantQueries: token<AssistantQueries>('AssistantQueries'),
  ReferenceData: token<ReferenceData>('ReferenceData'),
  AdministerAssistants: token<AdministerAssistants>('AdministerAssistants'),
} as const;
