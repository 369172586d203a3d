import { FakeStore } from '@voiceplane/adapter-fakes';
import { err } from '@voiceplane/domain';
import { AssistantQueries } from './assistant-queries';
import { SaveAssistant } from './save-assistant';

const START = new Date('2030-05-01T12:00:00.000Z');

async function setup() {
  const store = new FakeStore(START);
  const save = new SaveAssistant(store.uow, store.assistants, store.catalog, {
    requireHttps: false,
    allowPrivate: false,
  });
  const owner = await store.account();
  const stranger = await store.account();
  const created = async (userId: number, name: string, type?: 'inbound' | 'outbound') => {
    const result = await save.create({ userId, changes: { name, languageId: 1, ...(type ? { type } : {}) } });
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    return result.value;
  };
  return { queries: new AssistantQueries(store.assistants), owner, stranger, created };
}

describe('AssistantQueries', () => {
  it("answers the owner's assistant, and another account's or a missing one as not found alike", async () => {
    const { queries, owner, stranger, created } = await setup();
    const mine = await created(owner.id, 'Support');

    const found = await queries.get(owner.id, mine.id);

    expect(found.ok && found.value.name).toBe('Support');
    expect(await queries.get(stranger.id, mine.id)).toEqual(err({ code: 'not_found' }));
    expect(await queries.get(owner.id, mine.id + 100)).toEqual(err({ code: 'not_found' }));
  });

  it("lists only the caller's assistants, paginated newest first and unpaginated oldest first", async () => {
    const { queries, owner, stranger, created } = await setup();
    const first = await created(owner.id, 'First');
    const second = await created(owner.id, 'Second');
    await created(stranger.id, 'Theirs');

    const page = await queries.list(owner.id, { page: 1, perPage: 15 }, {});

    expect(page.total).toBe(2);
    expect(page.items.map((a) => a.id)).toEqual([second.id, first.id]);
    expect((await queries.listAll(owner.id, {})).map((a) => a.id)).toEqual([first.id, second.id]);
  });

  it("lists the caller's outbound assistants only", async () => {
    const { queries, owner, stranger, created } = await setup();
    await created(owner.id, 'Inbound', 'inbound');
    const outbound = await created(owner.id, 'Outbound', 'outbound');
    await created(stranger.id, 'Theirs', 'outbound');

    expect((await queries.outbound(owner.id)).map((a) => a.id)).toEqual([outbound.id]);
  });
});
