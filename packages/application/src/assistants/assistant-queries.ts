import { Assistant, err, OutboundAssistant, ok, Result } from '@voiceplane/domain';
import { Page, PageRequest } from '../common';
import { AssistantFilter, AssistantNotFound, AssistantRepository } from './ports';

/** The reads of an account's assistants: another account's assistant is not found, like a missing one. */
export class AssistantQueries {
  constructor(private readonly assistants: AssistantRepository) {}

  async get(userId: number, id: number): Promise<Result<Assistant, AssistantNotFound>> {
    const assistant = await this.assistants.findOwned(userId, id);
    return assistant === null ? err({ code: 'not_found' }) : ok(assistant);
  }

  /** Newest first. */
  list(userId: number, page: PageRequest, filter: AssistantFilter): Promise<Page<Assistant>> {
    return this.assistants.list(userId, page, filter);
  }

  /** Every matching assistant, oldest first, unpaginated. */
  listAll(userId: number, filter: AssistantFilter): Promise<Assistant[]> {
    return this.assistants.listAll(userId, filter);
  }

  outbound(userId: number): Promise<OutboundAssistant[]> {
    return this.assistants.listOutbound(userId);
  }
}
