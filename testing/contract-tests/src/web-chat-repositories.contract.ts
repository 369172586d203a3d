import { randomUUID } from 'node:crypto';
import { recordMessage } from '@voiceplane/domain';
import {
  ConversationRepository,
  NewWebChat,
  WebChatRepository,
  WidgetSettingsRepository,
} from '@voiceplane/application';

export interface WebChatStores {
  readonly conversations: ConversationRepository;
  readonly chats: WebChatRepository;
  readonly settings: WidgetSettingsRepository;
  /** Two accounts, each with one assistant. */
  readonly users: readonly [number, number];
  readonly assistants: readonly [number, number];
}

const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 10, minute));

/** The web-chat repositories' behaviour, run against every implementation. `open` gives empty stores for each test. */
export function webChatRepositoriesContract(name: string, open: () => Promise<WebChatStores>): void {
  describe(`web-chat repositories contract: ${name}`, () => {
    let s: WebChatStores;
    beforeEach(async () => {
      s = await open();
    });
    const chat = (over: Partial<NewWebChat> = {}): NewWebChat => ({
      userId: s.users[0],
      assistantId: s.assistants[0],
      type: 'widget',
      uuid: randomUUID(),
      variables: { name: 'Ann' },
      externalIdentifier: null,
      now: at(0),
      ...over,
    });

    it('creates a web chat with no sender or phone, owned by its account, listed by type and assistant', async () => {
      const created = await s.chats.create(chat({ type: 'test' }));
      expect(created).toEqual(
        expect.objectContaining({
          type: 'test',
          senderId: null,
          customerPhone: null,
          assistantId: s.assistants[0],
          variables: { name: 'Ann' },
          externalIdentifier: null,
          status: 'open',
          aiEnabled: true,
          messageCount: 0,
        }),
      );
      expect(await s.conversations.findOwned(s.users[1], { uuid: created.uuid })).toBeNull();
      expect((await s.conversations.findOwned(s.users[0], { id: created.id }))?.uuid).toBe(created.uuid);
      const listed = await s.conversations.list(s.users[0], { type: 'test', assistantId: s.assistants[0] }, null, 10);
      expect(listed.items.map((c) => c.id)).toEqual([created.id]);
      expect((await s.conversations.list(s.users[0], { type: 'widget' }, null, 10)).items).toEqual([]);
    });

    it('keeps one external conversation per assistant and customer identifier; saved variables stay', async () => {
      const first = await s.chats.lockOrCreateExternal({
        ...chat({ type: 'external' }),
        externalIdentifier: '+14155551234',
      });
      expect(first.created).toBe(true);
      await s.conversations.save({ ...first.conversation, variables: { name: 'Ann', plan: 'pro' } });
      const again = await s.chats.lockOrCreateExternal({
        ...chat({ type: 'external' }),
        externalIdentifier: '+14155551234',
      });
      expect([again.created, again.conversation.id, again.conversation.variables]).toEqual([
        false,
        first.conversation.id,
        { name: 'Ann', plan: 'pro' },
      ]);
      const other = await s.chats.lockOrCreateExternal({ ...chat({ type: 'external' }), externalIdentifier: 'crm-7' });
      expect(other.conversation.id).not.toBe(first.conversation.id);
      expect(
        (await s.conversations.list(s.users[0], { externalIdentifier: 'crm-7' }, null, 10)).items.map((c) => c.id),
      ).toEqual([other.conversation.id]);
    });

    it('stores messages with their function calls, read back in order and after a given id', async () => {
      const created = await s.chats.create(chat());
      const greeting = await s.chats.addMessage({
        conversationId: created.id,
        source: 'ai',
        body: 'Hello',
        functionCalls: null,
        now: at(1),
      });
      const asked = await s.chats.addMessage({
        conversationId: created.id,
        source: 'customer',
        body: 'Slots?',
        functionCalls: null,
        now: at(2),
      });
      const calls = [{ name: 'slots', arguments: { day: 'mon' }, result: { free: ['10:00'] } }];
      const answered = await s.chats.addMessage({
        conversationId: created.id,
        source: 'ai',
        body: 'Monday 10:00.',
        functionCalls: calls,
        now: at(3),
      });
      expect(answered).toEqual(
        expect.objectContaining({
          direction: 'outbound',
          source: 'ai',
          type: 'text',
          body: 'Monday 10:00.',
          functionCalls: calls,
        }),
      );
      expect(asked.direction).toBe('inbound');
      expect(
        (await s.conversations.recentMessages(created.id, 10)).map((m) => [m.body, m.functionCalls ?? null]),
      ).toEqual([
        ['Hello', null],
        ['Slots?', null],
        ['Monday 10:00.', calls],
      ]);
      expect((await s.chats.messagesAfter(created.id, greeting.id, 10)).map((m) => m.id)).toEqual([
        asked.id,
        answered.id,
      ]);
      const saved = recordMessage(created, {
        source: 'customer',
        type: 'text',
        at: at(2),
        assistantId: created.assistantId,
      }).next;
      await s.conversations.save(saved);
      expect((await s.conversations.findOwned(s.users[0], { id: created.id }))?.messageCount).toBe(1);
    });

    it('finds a widget chat only by its UUID together with its visitor token hash', async () => {
      const created = await s.chats.create(chat({ visitorTokenHash: 'a'.repeat(64) }));
      const other = await s.chats.create(chat({ visitorTokenHash: 'b'.repeat(64) }));
      expect((await s.chats.findVisitorChat(created.uuid, 'a'.repeat(64)))?.id).toBe(created.id);
      expect(await s.chats.findVisitorChat(created.uuid, 'b'.repeat(64))).toBeNull();
      expect(await s.chats.findVisitorChat(other.uuid, 'a'.repeat(64))).toBeNull();
      const test = await s.chats.create(chat({ type: 'test', visitorTokenHash: 'c'.repeat(64) }));
      expect(await s.chats.findVisitorChat(test.uuid, 'c'.repeat(64))).toBeNull();
    });

    it('widget settings: one per assistant, owned reads, found by key, replaced on save', async () => {
      const settings = {
        assistantId: s.assistants[0],
        userId: s.users[0],
        widgetKey: `wgt_${randomUUID().slice(0, 8)}`,
        enabled: true,
        allowedOrigins: ['https://a.example'],
        dailyCap: 2.5,
      };
      expect(await s.settings.find(s.users[0], s.assistants[0])).toBeNull();
      await s.settings.save(settings, at(0));
      expect(await s.settings.find(s.users[0], s.assistants[0])).toEqual(settings);
      expect(await s.settings.find(s.users[1], s.assistants[0])).toBeNull();
      expect(await s.settings.findByKey(settings.widgetKey)).toEqual(settings);
      const rotated = { ...settings, widgetKey: `wgt_${randomUUID().slice(0, 8)}`, enabled: false };
      await s.settings.save(rotated, at(1));
      expect(await s.settings.findByKey(settings.widgetKey)).toBeNull();
      expect(await s.settings.find(s.users[0], s.assistants[0])).toEqual(rotated);
    });
  });
}
