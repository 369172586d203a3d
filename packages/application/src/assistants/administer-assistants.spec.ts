import { FakeStore, InMemoryEventTypeRepository, InMemoryKnowledgeBases } from '@voiceplane/adapter-fakes';
import { err } from '@voiceplane/domain';
import { AdministerAssistants } from './administer-assistants';
import { SaveAssistant } from './save-assistant';

const START = new Date('2030-05-01T12:00:00.000Z');

async function setup() {
  const store = new FakeStore(START);
  const knowledge = new InMemoryKnowledgeBases(store.clock);
  const events = new InMemoryEventTypeRepository(store.clock);
  const admin = new AdministerAssistants({
    assistants: store.assistants,
    knowledgeBases: knowledge.knowledgeBaseRepository,
    eventTypes: events,
    users: store.users,
    uow: store.uow,
  });
  const user = await store.account();
  return { store, knowledge, events, admin, user };
}

describe('AdministerAssistants', () => {
  it("blocks any account's assistant for compliance, leaving its status alone", async () => {
    const { store, admin, user } = await setup();
    const save = new SaveAssistant(store.uow, store.assistants, store.catalog, {
      requireHttps: false,
      allowPrivate: false,
    });
    const created = await save.create({ userId: user.id, changes: { name: 'Support', languageId: 1 } });
    if (!created.ok) throw new Error('assistant not created');

    expect((await admin.setCompliance(created.value.id, true, 'Spam reports')).ok).toBe(true);

    const blocked = await store.assistants.findOwned(user.id, created.value.id);
    expect(blocked).toEqual(expect.objectContaining({ complianceBlocked: true, status: 'inactive' }));
  });

  it('answers a missing assistant as not found', async () => {
    const { admin } = await setup();

    expect(await admin.setCompliance(999, true, null)).toEqual(err({ code: 'not_found' }));
  });

  it('creates a knowledge base and an event type for an existing user', async () => {
    const { admin, user } = await setup();

    const kb = await admin.createKnowledgeBase(user.id, { name: 'FAQ', description: null, status: 'processing' });
    const eventType = await admin.createEventType(user.id, { name: 'Intro', durationMinutes: 30 });

    expect(kb.ok && kb.value).toEqual(expect.objectContaining({ userId: user.id, name: 'FAQ', status: 'processing' }));
    expect(eventType.ok && eventType.value).toEqual(
      expect.objectContaining({ userId: user.id, name: 'Intro', durationMinutes: 30 }),
    );
  });

  it('refuses a missing user and creates nothing for it', async () => {
    const { admin, knowledge, events } = await setup();

    expect(await admin.createKnowledgeBase(999, { name: 'FAQ', description: null, status: 'active' })).toEqual(
      err('user_not_found'),
    );
    expect(await admin.createEventType(999, { name: 'Intro', durationMinutes: 30 })).toEqual(err('user_not_found'));
    expect(knowledge.bases.size).toBe(0);
    expect(events.all()).toEqual([]);
  });
});
