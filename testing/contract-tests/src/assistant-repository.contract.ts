import { Assistant, ASSISTANT_DEFAULTS, AssistantConfig, err, ok, ReferenceQuery } from '@voiceplane/domain';
import { AssistantRepository, AssistantWrite, NewOutboxEvent, ToolRepository } from '@voiceplane/application';

export interface AssistantRepositoryFixture {
  readonly assistants: AssistantRepository;
  /** Where the tools an assistant attaches come from. */
  readonly tools: ToolRepository;
  /** Two accounts assistants may belong to. */
  readonly users: readonly [number, number];
  /** A phone number, folder or label the user owns; returns its id. */
  own(userId: number, kind: 'phone_number' | 'folder' | 'label'): Promise<number>;
  /** What the outbox holds, oldest first. */
  outbox(): Promise<Array<{ readonly topic: string; readonly payload: unknown }>>;
}

const config = (over: Partial<AssistantConfig> = {}): AssistantConfig => ({
  ...ASSISTANT_DEFAULTS,
  name: 'Sales',
  voiceId: 1,
  llmModelId: null,
  multimodalModelId: null,
  knowledgebaseMode: null,
  variables: { zeta: '1', alpha: '2' },
  ...over,
});
const TOOL = {
  name: 'lookup',
  description: 'Looks up',
  endpoint: 'https://api.example.com/x',
  method: 'GET' as const,
  bodyFormat: 'json' as const,
  timeout: 10,
  headers: [],
  staticFields: [],
  schema: [],
};
const NO_REFERENCES: ReferenceQuery = {
  folderIds: [],
  knowledgeBaseIds: [],
  phoneNumberIds: [],
  labelIds: [],
  toolIds: [],
  eventTypeIds: [],
  assistantIds: [],
  inboundNumber: null,
};

/** The AssistantRepository port's behaviour, run against every implementation. `open` gives an empty store for each test. */
export function assistantRepositoryContract(name: string, open: () => Promise<AssistantRepositoryFixture>): void {
  describe(`AssistantRepository contract: ${name}`, () => {
    let f: AssistantRepositoryFixture;
    const created = async (userId: number, over: Partial<AssistantConfig> = {}): Promise<Assistant> => {
      const saved = await f.assistants.create(userId, config(over));
      if (saved === 'inbound_number_taken') throw new Error('inbound number taken');
      return saved;
    };
    const write = (userId: number, id: number, change: AssistantWrite | null, events: NewOutboxEvent[] = []) =>
      f.assistants.update(userId, id, async () => ok({ write: change, events }));
    const configWrite = (c: AssistantConfig, toolIds: boolean): AssistantWrite => ({
      kind: 'config',
      config: c,
      replace: { toolIds, labelIds: false },
    });
    const tool = async (userId: number, toolName: string) =>
      (await f.tools.createWithinLimit(userId, { ...TOOL, name: toolName }, 100))!.id;

    beforeEach(async () => {
      f = await open();
    });

    it('writes the inbound and conversation-ended webhook addresses alone, and clears them', async () => {
      const assistant = await created(f.users[0], {});
      const inbound = await f.assistants.update(f.users[0], assistant.id, async () =>
        ok({ write: { kind: 'webhook_url', target: 'inbound', url: 'https://in.example.com/x' } }),
      );
      expect(inbound.ok && inbound.value).toEqual(
        expect.objectContaining({
          inboundWebhookUrl: 'https://in.example.com/x',
          conversationEndedWebhookUrl: null,
          webhookUrl: null,
        }),
      );
      await f.assistants.update(f.users[0], assistant.id, async () =>
        ok({ write: { kind: 'webhook_url', target: 'conversation_ended', url: 'https://end.example.com/x' } }),
      );
      await f.assistants.update(f.users[0], assistant.id, async () =>
        ok({ write: { kind: 'webhook_url', target: 'inbound', url: null } }),
      );
      expect(await f.assistants.findOwned(f.users[0], assistant.id)).toEqual(
        expect.objectContaining({ inboundWebhookUrl: null, conversationEndedWebhookUrl: 'https://end.example.com/x' }),
      );
    });

    it('stores a new assistant inactive and unblocked, with its attachments in order, for its owner only', async () => {
      const [t1, t2] = [await tool(f.users[0], 'a'), await tool(f.users[0], 'b')];
      const label = await f.own(f.users[0], 'label');

      const assistant = await created(f.users[0], { toolIds: [t2, t1], labelIds: [label] });

      expect(assistant).toEqual({
        ...config({ toolIds: [t2, t1], labelIds: [label] }),
        id: expect.any(Number),
        userId: f.users[0],
        status: 'inactive',
        complianceBlocked: false,
        inboundWebhookUrl: null,
        uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        createdAt: expect.any(Date),
        updatedAt: expect.any(Date),
      });
      expect(Object.keys(assistant.variables)).toEqual(['zeta', 'alpha']);
      expect(await f.assistants.findOwned(f.users[0], assistant.id)).toEqual(assistant);
      expect(await f.assistants.findOwned(f.users[1], assistant.id)).toBeNull();
    });

    it('gives every assistant its own UUID, kept by updates and found by its owner only', async () => {
      const first = await created(f.users[0]);
      const second = await created(f.users[0]);
      expect(first.uuid).not.toBe(second.uuid);
      await write(f.users[0], first.id, configWrite(config({ name: 'Renamed' }), false));
      expect(await f.assistants.findOwnedByUuid(f.users[0], first.uuid)).toEqual(
        expect.objectContaining({ id: first.id, name: 'Renamed', uuid: first.uuid }),
      );
      expect(await f.assistants.findOwnedByUuid(f.users[1], first.uuid)).toBeNull();
      expect(await f.assistants.findOwnedByUuid(f.users[0], '00000000-0000-4000-8000-000000000000')).toBeNull();
    });

    it('rewrites the configuration, and the attachments only when asked to', async () => {
      const t1 = await tool(f.users[0], 'a');
      const t2 = await tool(f.users[0], 'b');
      const assistant = await created(f.users[0], { toolIds: [t1] });

      await write(f.users[0], assistant.id, configWrite(config({ name: 'Renamed', toolIds: [t2] }), false));
      expect(await f.assistants.findOwned(f.users[0], assistant.id)).toEqual(
        expect.objectContaining({ name: 'Renamed', toolIds: [t1] }),
      );

      const saved = await write(f.users[0], assistant.id, configWrite(config({ name: 'Again', toolIds: [t2] }), true));
      expect(saved).toEqual(ok(expect.objectContaining({ name: 'Again', toolIds: [t2], status: 'inactive' })));
      expect(await f.assistants.findOwned(f.users[0], assistant.id)).toEqual(
        expect.objectContaining({ name: 'Again', toolIds: [t2] }),
      );
    });

    it('keeps a number to one inbound assistant', async () => {
      const number = await f.own(f.users[0], 'phone_number');
      await created(f.users[0], { type: 'inbound', phoneNumberId: number });
      const outbound = await created(f.users[0], { phoneNumberId: number });

      expect(await f.assistants.create(f.users[0], config({ type: 'inbound', phoneNumberId: number }))).toBe(
        'inbound_number_taken',
      );
      expect(
        await write(f.users[0], outbound.id, configWrite(config({ type: 'inbound', phoneNumberId: number }), false)),
      ).toEqual(err('inbound_number_taken'));
      expect(await f.assistants.findOwned(f.users[0], outbound.id)).toEqual(
        expect.objectContaining({ type: 'outbound' }),
      );
    });

    it('changes status, webhook and compliance on their own', async () => {
      const assistant = await created(f.users[0]);

      expect(await write(f.users[0], assistant.id, { kind: 'status', status: 'active' })).toEqual(
        ok(expect.objectContaining({ id: assistant.id, status: 'active', name: 'Sales' })),
      );
      expect(
        await write(f.users[0], assistant.id, {
          kind: 'webhook',
          webhook: { isWebhookActive: true, webhookUrl: 'https://hooks.example.com/a' },
        }),
      ).toEqual(
        ok(
          expect.objectContaining({
            status: 'active',
            isWebhookActive: true,
            webhookUrl: 'https://hooks.example.com/a',
          }),
        ),
      );
      expect(await f.assistants.setCompliance(assistant.id, true, 'review')).toBe(true);
      expect(await f.assistants.setCompliance(assistant.id + 1000, true, null)).toBe(false);

      expect(await f.assistants.findOwned(f.users[0], assistant.id)).toEqual({
        ...assistant,
        status: 'active',
        isWebhookActive: true,
        webhookUrl: 'https://hooks.example.com/a',
        complianceBlocked: true,
        updatedAt: expect.any(Date),
      });
    });

    it("writes a change's events after its write, and nothing of a refused change or of another user's assistant", async () => {
      const assistant = await created(f.users[0]);
      const event = { topic: 'assistant.webhook_disabled', payload: { assistant_id: assistant.id } };

      expect(await write(f.users[0], assistant.id, null, [event])).toEqual(ok(assistant));
      expect(await f.assistants.update(f.users[0], assistant.id, async () => err('no_thanks' as const))).toEqual(
        err('no_thanks'),
      );
      expect(await write(f.users[1], assistant.id, { kind: 'status', status: 'active' }, [event])).toEqual(
        err({ code: 'not_found' }),
      );

      expect(await f.assistants.findOwned(f.users[0], assistant.id)).toEqual(assistant);
      expect(await f.outbox()).toEqual([event]);
    });

    it("lists a user's assistants newest first and the outbound ones oldest first", async () => {
      const folder = await f.own(f.users[0], 'folder');
      const a = await created(f.users[0]);
      const b = await created(f.users[0], { type: 'inbound', folderId: folder });
      const c = await created(f.users[0]);
      await created(f.users[1]);

      const page = await f.assistants.list(f.users[0], { page: 1, perPage: 2 }, {});
      expect(page.total).toBe(3);
      expect(page.items.map((x) => x.id)).toEqual([c.id, b.id]);
      expect(
        (await f.assistants.list(f.users[0], { page: 1, perPage: 15 }, { folderId: folder })).items.map((x) => x.id),
      ).toEqual([b.id]);
      expect(
        (await f.assistants.list(f.users[0], { page: 1, perPage: 15 }, { type: 'outbound' })).items.map((x) => x.id),
      ).toEqual([c.id, a.id]);
      expect((await f.assistants.listAll(f.users[0], {})).map((x) => x.id)).toEqual([a.id, b.id, c.id]);
      expect(await f.assistants.listAll(f.users[0], { folderId: folder })).toEqual([b]);
      const outbound = await f.assistants.listOutbound(f.users[0]);
      expect(outbound.map((x) => x.id)).toEqual([a.id, c.id]);
      expect(outbound[0]).toEqual({
        id: a.id,
        userId: f.users[0],
        name: 'Sales',
        type: 'outbound',
        mode: 'pipeline',
        status: 'inactive',
        voiceId: 1,
        languageId: 1,
        timezone: 'UTC',
        initialMessage: '',
        systemPrompt: '',
        variables: { zeta: '1', alpha: '2' },
        webhookUrl: null,
        isWebhookActive: false,
        createdAt: a.createdAt,
        updatedAt: a.updatedAt,
      });
    });

    it('answers which referenced records the user owns, with tool names, and whether an inbound number is taken', async () => {
      const mine = await f.own(f.users[0], 'folder');
      const theirs = await f.own(f.users[1], 'folder');
      const number = await f.own(f.users[0], 'phone_number');
      const myTool = await tool(f.users[0], 'lookup_a');
      const theirTool = await tool(f.users[1], 'lookup_b');
      const inbound = await created(f.users[0], { type: 'inbound', phoneNumberId: number });
      const foreign = await created(f.users[1]);

      const owned = await f.assistants.findOwnedReferences(f.users[0], {
        ...NO_REFERENCES,
        folderIds: [mine, theirs],
        phoneNumberIds: [number],
        toolIds: [myTool, theirTool],
        assistantIds: [inbound.id, foreign.id],
        inboundNumber: { phoneNumberId: number, exceptAssistantId: null },
      });

      expect(owned).toEqual({
        folderIds: new Set([mine]),
        knowledgeBaseIds: new Set(),
        phoneNumberIds: new Set([number]),
        labelIds: new Set(),
        toolNames: new Map([[myTool, 'lookup_a']]),
        eventTypeIds: new Set(),
        assistantIds: new Set([inbound.id]),
        inboundNumberTaken: true,
      });
      expect(
        (
          await f.assistants.findOwnedReferences(f.users[0], {
            ...NO_REFERENCES,
            inboundNumber: { phoneNumberId: number, exceptAssistantId: inbound.id },
          })
        ).inboundNumberTaken,
      ).toBe(false);
    });

    it("deletes only the owner's assistant", async () => {
      const assistant = await created(f.users[0]);

      expect(await f.assistants.delete(f.users[1], assistant.id)).toBe(false);
      expect(await f.assistants.delete(f.users[0], assistant.id)).toBe(true);
      expect(await f.assistants.findOwned(f.users[0], assistant.id)).toBeNull();
    });
  });
}
