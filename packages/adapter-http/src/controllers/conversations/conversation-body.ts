import {
  CONVERSATION_STATUSES,
  ConversationStatus,
  CUSTOMER_IDENTIFIER_MAX,
  LISTED_CONVERSATION_TYPES,
  ListedConversationType,
  WEB_CHAT_MESSAGE_MAX,
} from '@voiceplane/domain';
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
  @Str({
    enum: Object.keys(LISTED_CONVERSATION_TYPES),
    description: '`whatsapp`: chat-app conversations; `api`: generate-reply conversations',
  })
  type?: ListedConversationType;
  @Id() assistant_id?: number;
  @Str({ max: PHONE_TEXT_MAX, description: 'The phone number of the chat-app sender' }) whatsapp_sender_phone?: string;
  @Str({ max: CUSTOMER_IDENTIFIER_MAX }) external_identifier?: string;
}

export class HumanReplyBody {
  @Str({
    required: true,
    max: WEB_CHAT_MESSAGE_MAX,
    trim: false,
    description: "A human's answer in a web chat, 1–2000 characters",
  })
  message!: string;
}

export class CursorQuery {
  @Str({ max: 512, description: 'Opaque cursor from a previous page' }) cursor?: string;
  @Int({ min: 1, max: 100 }) per_page?: number;
}
