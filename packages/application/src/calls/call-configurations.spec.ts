import { FakeStore, SAMPLE_CATALOG } from '@voiceplane/adapter-fakes';
import { Assistant, AssistantConfig, BuiltInTool, draftAssistant, ok } from '@voiceplane/domain';
import { AssistantChange } from '../assistants';
import { CallConfigurations, MAX_TRANSFER_ASSISTANTS } from './call-configurations';

const transferTo = (id: number): BuiltInTool => ({
  type: 'assistant_transfer',
  data: { assistant_id: id, description: null, message_before_transfer: null, speak_transfer_greeting: true },
});

async function setup() {
  const store = new FakeStore(new Date('2030-05-01T12:00:00.000Z'));
  const user = await store.account({ balance: 5 });
  const create = async (name: string, config: Partial<AssistantConfig> = {}): Promise<Assistant> => {
    const a = await store.assistants.create(user.id, { ...draftAssistant({ name }, SAMPLE_CATALOG), ...config });
    if (a === 'inbound_number_taken') throw new Error('taken');
    return a;
  };
  const update = async (a: Assistant, tools: BuiltInTool[]) => {
    const r = await store.assistants.update(user.id, a.id, async (current) =>
      ok<AssistantChange>({
        write: { kind: 'config', config: { ...current, tools }, replace: { toolIds: false, labelIds: false } },
      }),
    );
    if (!r.ok) throw new Error('update failed');
    return r.value;
  };
  const configurations = new CallConfigurations(store.tools, store.catalog, store.assistants);
  const start = (assistant: Assistant) =>
    configurations.forStart({
      direction: 'outbound',
      channel: 'phone',
      customerPhone: '+14155551234',
      line: null,
      assistant,
      variables: { order: '42' },
    });
  return { store, user, create, update, start };
}

describe('call configurations: the assistants a call can be handed to', () => {
  it('carries every assistant reachable through assistant_transfer tools, each with its call variables, tools and voice', async () => {
    const { create, start } = await setup();
    const billing = await create('Billing', {
      systemPrompt: 'You do billing.',
      variables: { team: 'billing' },
      voiceId: 3,
    });
    const support = await create('Support', { tools: [transferTo(billing.id)] });
    const sales = await create('Sales', { tools: [transferTo(support.id), transferTo(billing.id)] });

    const config = await start(sales);
    expect(config.transfer_assistants?.map((t) => t.assistant.name)).toEqual(['Support', 'Billing']);
    const target = config.transfer_assistants![1];
    expect(target.assistant).toEqual(
      expect.objectContaining({ id: billing.id, system_prompt: 'You do billing.', language: 'en' }),
    );
    expect(target.variables).toEqual({ team: 'billing', order: '42' });
    expect(target.speech.voice).toEqual(expect.objectContaining({ id: 3, name: 'Lena', provider: 'cartesia' }));
    expect(target).not.toHaveProperty('sip');
  });

  it("leaves the field out without targets, skips deleted ones and the call's own assistant, and stops at the bound", async () => {
    const { create, start, store, user, update } = await setup();
    const plain = await create('Plain');
    expect(await start(plain)).not.toHaveProperty('transfer_assistants');

    const gone = await create('Gone');
    await store.assistants.delete(user.id, gone.id);
    const loop = await create('Loop');
    const looped = await update(loop, [transferTo(gone.id), transferTo(loop.id)]);
    expect(await start(looped)).not.toHaveProperty('transfer_assistants');

    const many: Assistant[] = [];
    for (let i = 0; i < MAX_TRANSFER_ASSISTANTS + 2; i += 1) many.push(await create(`A${i}`));
    const hub = await create('Hub', { tools: many.map((a) => transferTo(a.id)) });
    expect((await start(hub)).transfer_assistants).toHaveLength(MAX_TRANSFER_ASSISTANTS);
  });
});
