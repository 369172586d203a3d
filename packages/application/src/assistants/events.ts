import { AssistantEvent } from '@voiceplane/domain';
import { NewOutboxEvent } from '../ports';

/** Topic = event name; the payload names the assistant and its owner (docs/assistants.md). */
export function toOutboxEvent(e: AssistantEvent): NewOutboxEvent {
  return { topic: e.name, payload: { assistant_id: e.assistantId, user_id: e.userId } };
}
