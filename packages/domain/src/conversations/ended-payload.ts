import { MediaType } from '../chatapp/media';
import { Conversation } from './conversation';
import { ConversationMessage, roleOfSource } from './message';

/** What the `conversation_ended` payload is built from, read once the end is recorded. */
export interface EndedConversationFacts {
  readonly conversation: Conversation;
  /** Oldest first. */
  readonly messages: readonly ConversationMessage[];
  readonly sender: { readonly phoneNumber: string; readonly displayName: string };
  readonly extractedVariables: Readonly<Record<string, unknown>>;
  readonly inputVariables: Readonly<Record<string, string>>;
}

const MEDIA_PLACEHOLDERS: Readonly<Record<MediaType, string>> = {
  image: '[Image]',
  audio: '[Audio]',
  video: '[Video]',
  document: '[Document]',
};
const TRANSCRIPT_LABELS = { user: 'Customer', assistant: 'AI', system: 'System' } as const;

/** A media message reads as its caption, or a placeholder naming its kind. */
export function transcriptText(message: Pick<ConversationMessage, 'body' | 'mediaType'>): string {
  if (message.body !== null && message.body !== '') return message.body;
  return message.mediaType !== null ? MEDIA_PLACEHOLDERS[message.mediaType] : '';
}

export function conversationEndedPayload(facts: EndedConversationFacts): Record<string, unknown> {
  const { conversation: c, messages } = facts;
  const transcript = messages.map((m) => ({
    role: roleOfSource(m.source),
    content: transcriptText(m),
    timestamp: m.createdAt.toISOString(),
    timestamp_unix: Math.floor(m.createdAt.getTime() / 1000),
  }));
  return {
    id: c.id,
    conversation_id: c.uuid,
    assistant_id: c.assistantId,
    type: c.type,
    message_count: c.messageCount,
    status: c.status,
    extracted_variables: facts.extractedVariables,
    input_variables: facts.inputVariables,
    transcript,
    formatted_transcript: transcript.map((t) => `${TRANSCRIPT_LABELS[t.role]}: ${t.content}`).join('\n'),
    attachments: messages
      .filter((m) => m.mediaUrl !== null)
      .map((m) => ({ type: m.mediaType, url: m.mediaUrl, filename: m.filename })),
    customer_phone: c.customerPhone,
    customer_name: c.customerName,
    sender: { phone_number: facts.sender.phoneNumber, display_name: facts.sender.displayName },
    created_at: c.createdAt.toISOString(),
    ended_at: c.endedAt?.toISOString() ?? null,
  };
}
