import { CONVERSATION_STATUSES, ConversationStatus } from '@voiceplane/domain';
import { Bool, Id, Int, Str, ListFilters } from '../../validation';

const PHONE_TEXT_MAX = 64;

@ListFilters()
export class ConversationListQuery {
  @Str({ max: 512, description: 'Opaque cursor from a previous page' }) cursor?: string;
  @Int({ min: 1, max: 100 }) per_page?: number;
  @Id() sender_id?: number;
  @Str({ enum: CONVERSATION_STATUSES }) status?: ConversationStatus;
  @Bool() ai_enabled?: boolean;
  @Str({ max: PHONE_TEXT_MAX }) customer_phone?: string;
}

export class CursorQuery {
  @Str({ max: 512, description: 'Opaque cursor from a previous page' }) cursor?: string;
  @Int({ min: 1, max: 100 }) per_page?: number;
}
