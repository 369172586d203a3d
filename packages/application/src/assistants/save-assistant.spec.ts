import { FakeStore } from '@voiceplane/adapter-fakes';
import { AssistantChanges, err } from '@voiceplane/domain';
import { SaveAssistant } from './save-assistant';

const START = new Date('2030-05-01T12:00:00.000Z');
const TOOL = {
  description: 'Looks up',
  endpoint: 'https://api.example.com/x',
  method: 'GET' as const,
  bodyFormat: 'json' as const,
  timeout: 10,
  headers: [],
  staticFields: [],
  schema: [],
};

async function setup() {
  const store = new FakeStore(START);
  const save = new SaveAssistant(store.uow, store.assistants, store.catalog, {
    requireHttps: false,
    allowPrivate: false,
  });
  const user = await store.account();
  const create = (changes: AssistantChanges, malformedFields?: string[]) =>
    save.create({ userId: user.id, changes, malformedFields });
  const created = async (changes: AssistantChanges) => {
    const result = await create(changes);
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    return result.value;
  };
  const update = (assistantId: number, changes: AssistantChanges, userId = user.id) =>
    save.update({ userId, assistantId, changes });
  const tool = async (name: string) => (await store.tools.createWithinLimit(user.id, { ...TOOL, name }, 100))!.id;
  return { store, user, create, created, update, tool };
}

describe('SaveAssistant', () => {
  it("creates an assistant from the catalogue's defaults, inactive, and raises no event", async () => {
    const { store, user, created } = await setup();

    const assistant = await created({ name: 'Support', languageId: 5 });

    expect(assistant).toEqual(
      expect.objectContaining({
        userId: user.id,
        name: 'Support',
        status: 'inactive',
        complianceBlocked: false,
        mode: 'pipeline',
        languageId: 5,
        voiceId: 3,
        llmModelId: 1,
        multimodalModelId: null,
        isWebhookActive: false,
        webhookUrl: null,
        toolIds: [],
        createdAt: START,
      }),
    );
    expect(await store.assistants.findOwned(user.id, assistant.id)).toEqual(assistant);
    expect(store.outbox.events()).toEqual([]);
  });

  it('answers every rule problem at once, leaving out fields whose shape was refused, and stores nothing', async () => {
    const { store, user, create, tool } = await setup();
    const a = await tool('lookup');
    const b = await tool('lookup');

    const result = await create(
      {
        name: 'Support',
        webhookUrl: 'http://127.0.0.1/hook',
        isWebhookActive: true,
        folderId: 999,
        toolIds: [a, b],
        voiceId: 5,
      },
      ['speech_speed', 'voice_id'],
    );

    expect(result).toEqual(
      err({
        code: 'invalid',
        problems: {
          webhook_url: ['blocked_url'],
          folder_id: ['selected_invalid'],
          tool_ids: [{ code: 'duplicate_tool_name', name: 'lookup' }],
        },
      }),
    );
    expect((await store.assistants.list(user.id, { page: 1, perPage: 15 }, {})).total).toBe(0);
  });

  it('refuses a request whose only problem is a refused shape', async () => {
    const { create } = await setup();

    expect(await create({ name: 'Support' }, ['speech_speed'])).toEqual(err({ code: 'invalid', problems: {} }));
  });

  it('accepts references the account owns', async () => {
    const { store, user, created, tool } = await setup();
    store.assistants.own(user.id, { folderIds: [41], phoneNumberIds: [77] });
    const lookup = await tool('lookup');

    const assistant = await created({
      name: 'Inbound',
      type: 'inbound',
      folderId: 41,
      phoneNumberId: 77,
      toolIds: [lookup, lookup],
    });

    expect(assistant).toEqual(expect.objectContaining({ folderId: 41, phoneNumberId: 77, toolIds: [lookup] }));
  });

  it('keeps a number to one inbound assistant', async () => {
    const { store, user, create, created, update } = await setup();
    store.assistants.own(user.id, { phoneNumberIds: [77] });
    await created({ name: 'First', type: 'inbound', phoneNumberId: 77 });
    const outbound = await created({ name: 'Second', phoneNumberId: 77 });

    const taken = err({ code: 'invalid', problems: { phone_number_id: ['inbound_number_taken'] } });
    expect(await create({ name: 'Third', type: 'inbound', phoneNumberId: 77 })).toEqual(taken);
    expect(await update(outbound.id, { type: 'inbound' })).toEqual(taken);
    expect((await store.assistants.findOwned(user.id, outbound.id))?.type).toBe('outbound');
  });

  it('updates over what is stored, resets what a new mode does not support, and keeps what was not sent', async () => {
    const { store, created, update, tool } = await setup();
    const lookup = await tool('lookup');
    const assistant = await created({ name: 'Support', toolIds: [lookup], fillers: true, systemPrompt: 'Be brief.' });
    store.clock.advance(60_000);

    const result = await update(assistant.id, { mode: 'multimodal' });

    expect(result.ok && result.value).toEqual(
      expect.objectContaining({
        name: 'Support',
        systemPrompt: 'Be brief.',
        mode: 'multimodal',
        voiceId: 5,
        multimodalModelId: 3,
        fillers: false,
        toolIds: [lookup],
        updatedAt: store.clock.now(),
      }),
    );
  });

  it("refuses another account's assistant as not found", async () => {
    const { store, created, update } = await setup();
    const assistant = await created({ name: 'Support' });
    const other = await store.account();

    expect(await update(assistant.id, { name: 'Mine now' }, other.id)).toEqual(err({ code: 'not_found' }));
    expect(await update(9_999, { name: 'Nobody' })).toEqual(err({ code: 'not_found' }));
  });

  it('raises the switch-off events when an update turns the webhooks off, and only then', async () => {
    const { store, user, created, update } = await setup();
    const assistant = await created({
      name: 'Support',
      isWebhookActive: true,
      webhookUrl: 'https://hooks.example.com/a',
      conversationEndedWebhookUrl: 'https://hooks.example.com/b',
    });

    await update(assistant.id, { name: 'Renamed' });
    expect(store.outbox.events()).toEqual([]);

    const result = await update(assistant.id, { isWebhookActive: false, conversationEndedWebhookUrl: null });

    expect(result.ok && result.value).toEqual(
      expect.objectContaining({ isWebhookActive: false, webhookUrl: null, conversationEndedWebhookUrl: null }),
    );
    expect(store.outbox.events().map(({ topic, payload }) => ({ topic, payload }))).toEqual([
      { topic: 'assistant.webhook_disabled', payload: { assistant_id: assistant.id, user_id: user.id } },
      {
        topic: 'assistant.conversation_ended_webhook_cleared',
        payload: { assistant_id: assistant.id, user_id: user.id },
      },
    ]);
  });
});
