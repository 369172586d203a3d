import {
  AssistantConfig, AssistantStatus, AssistantType, OwnedReferences, ReferenceCatalog, ReferenceQuery, WebhookState,
} from '@voiceplane/domain';
import { Page, PageRequest } from '../shared/page';

/** A stored assistant: its configuration plus what only the system sets (CONTRACT A.1). */
export interface Assistant extends AssistantConfig {
  readonly id: number;
  readonly user_id: number;
  readonly status: AssistantStatus;
  readonly compliance_blocked: boolean;
  readonly created_at: Date;
  readonly updated_at: Date;
}

/** The fixed item of `GET /assistants/outbound` (CONTRACT A.2): read on every dial-out screen. */
export type OutboundAssistant = Pick<Assistant,
  'id' | 'user_id' | 'name' | 'type' | 'mode' | 'status' | 'voice_id' | 'language_id' | 'timezone' | 'initial_message' |
  'system_prompt' | 'variables' | 'webhook_url' | 'is_webhook_active' | 'created_at' | 'updated_at'>;

export interface AssistantFilter {
  readonly type?: AssistantType;
  readonly status?: AssistantStatus;
  readonly folder_id?: number;
  readonly label_id?: number;
}

/** Another inbound assistant took the number between the check and the write. */
export type InboundNumberTaken = 'inbound_number_taken';

export interface AssistantRepository {
  create(userId: number, config: AssistantConfig): Promise<Assistant | InboundNumberTaken>;
  /** Null for a missing id and for another user's assistant alike. `lock` holds the row until the transaction ends. */
  findOwned(userId: number, id: number, options?: { lock?: boolean }): Promise<Assistant | null>;
  /** Attached tools and labels are rewritten only when the request sent them. */
  update(id: number, config: AssistantConfig, replace: { readonly toolIds: boolean; readonly labelIds: boolean }): Promise<Assistant | InboundNumberTaken>;
  delete(userId: number, id: number): Promise<boolean>;
  /** Newest first. */
  list(userId: number, page: PageRequest, filter: AssistantFilter): Promise<Page<Assistant>>;
  /** Every matching assistant of the user, id ascending (the unpaginated list, CONTRACT §3.6). */
  listAll(userId: number, filter: AssistantFilter): Promise<Assistant[]>;
  /** Every outbound assistant of the user, id ascending. */
  listOutbound(userId: number): Promise<OutboundAssistant[]>;
  setStatus(id: number, status: AssistantStatus): Promise<Assistant>;
  setWebhook(id: number, webhook: WebhookState): Promise<void>;
  /** Operators act on any user's assistant; false when the id does not exist. */
  setCompliance(id: number, blocked: boolean, reason: string | null): Promise<boolean>;
  findOwnedReferences(userId: number, query: ReferenceQuery): Promise<OwnedReferences>;
}

/** The shipped reference catalogue (CONTRACT §3.10); it never changes while the process runs. */
export interface CatalogRepository {
  catalog(): Promise<ReferenceCatalog>;
}

export const KNOWLEDGE_BASE_STATUSES = ['empty', 'processing', 'active', 'failed'] as const;
export type KnowledgeBaseStatus = (typeof KNOWLEDGE_BASE_STATUSES)[number];

export interface KnowledgeBase {
  readonly id: number;
  readonly user_id: number;
  readonly name: string;
  readonly description: string | null;
  readonly status: KnowledgeBaseStatus;
  readonly documents_count: number;
  readonly assistants_count: number;
  readonly created_at: Date;
  readonly updated_at: Date;
}

export interface KnowledgeBaseRepository {
  create(userId: number, kb: { name: string; description: string | null; status: KnowledgeBaseStatus }): Promise<KnowledgeBase>;
  listOwned(userId: number): Promise<KnowledgeBase[]>;
  findOwned(userId: number, id: number): Promise<KnowledgeBase | null>;
}

export interface EventType {
  readonly id: number;
  readonly user_id: number;
  readonly name: string;
  readonly duration_minutes: number;
  readonly created_at: Date;
}

export interface EventTypeRepository {
  create(userId: number, eventType: { name: string; duration_minutes: number }): Promise<EventType>;
  listOwned(userId: number): Promise<EventType[]>;
}
