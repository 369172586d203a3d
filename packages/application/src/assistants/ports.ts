import {
  Assistant,
  AssistantConfig,
  AssistantStatus,
  AssistantType,
  EventType,
  OutboundAssistant,
  OwnedReferences,
  ReferenceCatalog,
  ReferenceQuery,
  Result,
  WebhookState,
  WebhookTarget,
} from '@voiceplane/domain';
import { NewOutboxEvent } from '../ports';
import { Page, PageRequest } from '../common';

export interface AssistantFilter {
  readonly type?: AssistantType;
  readonly status?: AssistantStatus;
  readonly folderId?: number;
  readonly labelId?: number;
}

/** Another inbound assistant took the number between the check and the write. */
export type InboundNumberTaken = 'inbound_number_taken';

export type AssistantNotFound = { readonly code: 'not_found' };

/** One of the writes a change to an assistant makes; each touches only its own columns. */
export type AssistantWrite =
  | { readonly kind: 'status'; readonly status: AssistantStatus }
  | { readonly kind: 'webhook'; readonly webhook: WebhookState }
  /** One of the other webhook addresses, set or cleared by its switch. */
  | { readonly kind: 'webhook_url'; readonly target: WebhookTarget; readonly url: string | null }
  /** Attached tools and labels are rewritten only when the request sent them. */
  | {
      readonly kind: 'config';
      readonly config: AssistantConfig;
      readonly replace: { readonly toolIds: boolean; readonly labelIds: boolean };
    };

/** What a change decided about a locked assistant. */
export interface AssistantChange {
  /** Null: the assistant is not written (its `updated_at` stays). */
  readonly write: AssistantWrite | null;
  /** Raised by the change; written to the outbox once the write succeeded. */
  readonly events?: readonly NewOutboxEvent[];
}

export interface AssistantRepository {
  create(userId: number, config: AssistantConfig): Promise<Assistant | InboundNumberTaken>;
  /** Null for a missing id and for another user's assistant alike. `lock` holds the row until the transaction ends. */
  findOwned(userId: number, id: number, options?: { lock?: boolean }): Promise<Assistant | null>;
  /** By the assistant's public UUID (lower case); null for another user's. */
  findOwnedByUuid(userId: number, uuid: string): Promise<Assistant | null>;
  /**
   * Changes a user's assistant that concurrent requests and call ends also read: in one transaction
   * (the caller's, when there is one) locks it, hands it to `decide`, then makes the write and adds
   * the events it returned. Answers the assistant as stored afterwards. A refusal writes nothing; a
   * number another inbound assistant took meanwhile writes nothing and is `inbound_number_taken`.
   */
  update<E>(
    userId: number,
    id: number,
    decide: (current: Assistant) => Promise<Result<AssistantChange, E>>,
  ): Promise<Result<Assistant, E | AssistantNotFound | InboundNumberTaken>>;
  delete(userId: number, id: number): Promise<boolean>;
  /** Newest first. */
  list(userId: number, page: PageRequest, filter: AssistantFilter): Promise<Page<Assistant>>;
  /** Every matching assistant of the user, id ascending (the unpaginated list). */
  listAll(userId: number, filter: AssistantFilter): Promise<Assistant[]>;
  /** Every outbound assistant of the user, id ascending. */
  listOutbound(userId: number): Promise<OutboundAssistant[]>;
  /** Operators act on any user's assistant; false when the id does not exist. */
  setCompliance(id: number, blocked: boolean, reason: string | null): Promise<boolean>;
  findOwnedReferences(userId: number, query: ReferenceQuery): Promise<OwnedReferences>;
}

/** The shipped reference catalogue; it never changes while the process runs. */
export interface CatalogRepository {
  catalog(): Promise<ReferenceCatalog>;
}

export interface EventTypeRepository {
  create(userId: number, eventType: { name: string; durationMinutes: number }): Promise<EventType>;
  listOwned(userId: number): Promise<EventType[]>;
}
