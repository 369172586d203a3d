import {
  InMemoryChatappMessageRepository,
  InMemoryConversationRepository,
  InMemoryToolInvocationLog,
} from '@voiceplane/adapter-fakes';
import { err } from '@voiceplane/domain';
import { ConversationQueries } from './conversation-queries';

const OWNER = 1;
const STRANGER = 2;
const NOW = new Date('2026-11-27T10:00:00Z');

async function setup() {
  const conversations = new InMemoryConversationRepository(new InMemoryChatappMessageRepository());
  const log = new InMemoryToolInvocationLog();
  const conversation = await conversations.lockOrCreate({
    userId: OWNER,
    senderId: 7,
    customerPhone: '+14155551234',
    uuid: '3f1c2b7a-0d4e-4c3b-9a51-2f6e8d9c0a11',
    now: NOW,
  });
  log.recordSearch({
    id: 's-1',
    owner: { conversationId: conversation.id },
    userId: OWNER,
    durationMs: 12,
    at: NOW,
    search: { knowledgeBaseId: 4, mode: 'prompt', query: 'refunds', passages: [] },
  });
  return { queries: new ConversationQueries(conversations, log), conversation };
}

const unread = (): never => {
  throw new Error('read before the ownership check');
};

describe('ConversationQueries', () => {
  it("answers the owner's conversation with the knowledge-base searches its replies used, by id or UUID", async () => {
    const { queries, conversation } = await setup();
    for (const ref of [{ id: conversation.id }, { uuid: conversation.uuid }]) {
      const found = await queries.get(OWNER, ref);
      expect(
        found.ok && [found.value.conversation.id, found.value.toolCalls.map((t) => [t.name, t.knowledge?.query])],
      ).toEqual([conversation.id, [['search_knowledge_base', 'refunds']]]);
    }
  });

  it("does not find another account's conversation, and reads nothing more of the request", async () => {
    const { queries, conversation } = await setup();
    expect(await queries.get(STRANGER, { id: conversation.id })).toEqual(err('conversation_not_found'));
    expect(await queries.messages(STRANGER, { uuid: conversation.uuid }, unread)).toEqual(
      err('conversation_not_found'),
    );
    expect((await queries.list(STRANGER, {}, null, 15)).items).toEqual([]);
  });

  it("pages the owner's messages as the request asked, and says which request it answered", async () => {
    const { queries, conversation } = await setup();
    const page = await queries.messages(OWNER, { id: conversation.id }, () => ({ cursor: null, perPage: 5 }));
    expect(page.ok && { items: page.value.items, next: page.value.next, request: page.value.request }).toEqual({
      items: [],
      next: null,
      request: { cursor: null, perPage: 5 },
    });
    expect((await queries.list(OWNER, {}, null, 15)).items.map((c) => c.id)).toEqual([conversation.id]);
  });
});
