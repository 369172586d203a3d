import { Assistant, ASSISTANT_DEFAULTS, AssistantConfig, builtInTool, ok, ReferenceQuery } from '@voiceplane/domain';
import { AssistantWrite, CryptoIds } from '@voiceplane/application';
import { createTestDatabase, TestDatabase } from '@voiceplane/test-env';
import { Database } from '../../database';
import { TypeormOutbox } from '../outbox-writer';
import { TypeormAssistantRepository } from './assistant-repository';
import { TypeormCatalogRepository } from './catalog-repository';
import { TypeormFolderRepository } from './folder-repository';
import { TypeormKnowledgeBaseRepository } from '../knowledge-bases/knowledge-base-repository';
import { TypeormEventTypeRepository } from './event-type-repository';

/** Persistence of assistants and their references on the real database (PostgreSQL with DATABASE_URL). */
describe('assistant persistence', () => {
  let tdb: TestDatabase;
  let db: Database;
  let repo: TypeormAssistantRepository;
  let user = 0;
  let other = 0;

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => db.query<T>(text, params);
  const newUser = async () =>
    Number(
      (
        await sql<{ id: string }>(`INSERT INTO users (name, email, plan) VALUES ('U', $1, '{}') RETURNING id`, [
          `u${Math.random()}@example.test`,
        ])
      )[0].id,
    );
  const newTool = async (userId: number, name: string) =>
    Number(
      (
        await sql<{ id: string }>(`INSERT INTO tools (user_id, name, description) VALUES ($1, $2, 'd') RETURNING id`, [
          userId,
          name,
        ])
      )[0].id,
    );
  const newPhone = async (userId: number) =>
    Number(
      (
        await sql<{ id: string }>(
          `INSERT INTO phone_numbers (user_id, phone_number, type, country_code) VALUES ($1, '+14155550100', 'sip', 'US') RETURNING id`,
          [userId],
        )
      )[0].id,
    );
  const config = (over: Partial<AssistantConfig> = {}): AssistantConfig => ({
    ...ASSISTANT_DEFAULTS,
    name: 'Support',
    voiceId: 1,
    llmModelId: 1,
    multimodalModelId: null,
    knowledgebaseMode: null,
    ...over,
  });
  /** One write through the transaction-shaped update, answering the stored assistant. */
  const change = async (a: Assistant, write: AssistantWrite) => {
    const result = await repo.update(a.userId, a.id, async () => ok({ write }));
    if (!result.ok) throw new Error(`unexpected refusal: ${JSON.stringify(result.error)}`);
    return result.value;
  };
  const configure = (a: Assistant, c: AssistantConfig, toolIds: boolean) =>
    change(a, { kind: 'config', config: c, replace: { toolIds, labelIds: false } });
  const create = async (userId: number, c: AssistantConfig) => {
    const saved = await repo.create(userId, c);
    if (saved === 'inbound_number_taken') throw new Error('unexpected conflict');
    return saved;
  };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    db = new Database(tdb.dataSource);
    repo = new TypeormAssistantRepository(db, new TypeormOutbox(db, new CryptoIds(), { now: () => new Date() }));
    user = await newUser();
    other = await newUser();
  });
  afterAll(async () => {
    await tdb.close();
  });

  it('seeds exactly the catalogue', async () => {
    const catalog = await new TypeormCatalogRepository(db).catalog();
    expect(catalog.languages.map((l) => [l.id, l.iso_2])).toEqual([
      [1, 'en'],
      [2, 'ro'],
      [3, 'fr'],
      [4, 'es'],
      [5, 'de'],
      [6, 'lt'],
      [7, 'it'],
      [8, 'ar'],
      [9, 'pt'],
      [10, 'da'],
      [11, 'nl'],
      [12, 'pl'],
      [13, 'fi'],
      [14, 'he'],
    ]);
    expect(catalog.models).toEqual([
      { id: 1, name: 'gpt-4o-mini', provider: 'openai', kind: 'llm' },
      { id: 2, name: 'gpt-4.1', provider: 'openai', kind: 'llm' },
      { id: 3, name: 'gpt-4o-realtime', provider: 'openai', kind: 'multimodal' },
    ]);
    expect(catalog.providers).toEqual([
      { id: 1, name: 'elevenlabs', kind: 'synthesizer' },
      { id: 2, name: 'cartesia', kind: 'synthesizer' },
      { id: 3, name: 'deepgram', kind: 'transcriber' },
    ]);
    expect(catalog.voices.map((v) => [v.id, v.name, v.language_id, v.synthesizer_provider_id, v.modes])).toEqual([
      [1, 'Ava', 1, 1, ['pipeline', 'dualplex']],
      [2, 'Noah', 1, 1, ['pipeline', 'dualplex']],
      [3, 'Lena', 5, 2, ['pipeline', 'dualplex']],
      [4, 'Léa', 3, 2, ['pipeline', 'dualplex']],
      [5, 'alloy', null, null, ['multimodal']],
      [6, 'verse', null, null, ['multimodal']],
    ]);
  });

  it('round-trips every configuration field, attachments in their order', async () => {
    const folders = new TypeormFolderRepository(db, 'folders');
    const labels = new TypeormFolderRepository(db, 'labels');
    const folder = await folders.create(user, { name: 'F', color: 'red' });
    const [l1, l2] = [
      await labels.create(user, { name: 'L1', color: null }),
      await labels.create(user, { name: 'L2', color: null }),
    ];
    if (folder === 'name_taken' || l1 === 'name_taken' || l2 === 'name_taken') throw new Error('unexpected');
    const kb = await new TypeormKnowledgeBaseRepository(db).create(user, {
      name: 'KB',
      description: null,
      status: 'active',
    });
    const et = await new TypeormEventTypeRepository(db).create(user, { name: 'Call', durationMinutes: 30 });
    const [t1, t2] = [await newTool(user, 'a'), await newTool(user, 'b')];
    const full = config({
      type: 'inbound',
      mode: 'dualplex',
      timezone: 'Europe/Berlin',
      initialMessage: 'Hi',
      systemPrompt: 'P',
      knowledgebaseMode: 'function_call',
      reengagementPrompt: 'R',
      voiceMailMessage: 'V',
      endpointType: 'ai',
      ambientSound: 'nature',
      webhookUrl: 'https://h.example.com/a',
      conversationEndedWebhookUrl: 'https://h.example.com/b',
      voiceId: 2,
      languageId: 5,
      llmModelId: 2,
      multimodalModelId: 3,
      chatLlmFallbackId: 1,
      knowledgebaseId: kb.id,
      folderId: folder.id,
      phoneNumberId: await newPhone(user),
      synthesizerProviderId: 2,
      transcriberProviderId: null,
      secondaryLanguageIds: [3, 1],
      labelIds: [l2.id, l1.id],
      toolIds: [t2, t1],
      tools: [
        builtInTool({ type: 'calendar_integration', data: { event_type_id: et.id } }),
        builtInTool({ type: 'collect_keypad', data: { timeout: 9 } }),
      ],
      postCallSchema: [{ name: 'x', type: 'float', description: 'd' }],
      turnDetectionThreshold: 0.25,
      voiceStability: 0.1,
      voiceSimilarity: 0.2,
      speechSpeed: 0.75,
      llmTemperature: 0.3,
      maxDuration: 20,
      maxSilenceDuration: 1,
      maxInitialSilenceDuration: 5,
      ringingTime: 1,
      reengagementInterval: 600,
      endpointSensitivity: 4.5,
      interruptSensitivity: 0.25,
      minInterruptWords: 0,
      ambientSoundVolume: 0,
      conversationInactivityTimeout: 1,
      ttsEmotionEnabled: false,
      allowInterruptions: true,
      fillers: false,
      record: true,
      enableNoiseCancellation: false,
      waitForCustomer: true,
      endCallOnVoicemail: false,
      isWebhookActive: true,
      sendWebhookOnlyOnCompleted: false,
      includeRecordingInWebhook: false,
      postCallEvaluation: false,
      conversationEndedRetrigger: true,
      fillerConfig: { positive: ['a'], negative: [], question: ['b'], neutral: [] },
      variables: { k: 'v' },
    });
    const saved = await create(user, full);
    expect(saved).toEqual({
      ...full,
      id: expect.any(Number),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      userId: user,
      status: 'inactive',
      complianceBlocked: false,
      inboundWebhookUrl: null,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect(await repo.findOwned(user, saved.id)).toEqual(saved);
    expect(await repo.findOwned(other, saved.id)).toBeNull();
  });

  it('rewrites attachments only when asked', async () => {
    const [t1, t2] = [await newTool(user, 'c'), await newTool(user, 'd')];
    const saved = await create(user, config({ toolIds: [t1] }));
    await configure(saved, { ...saved, name: 'Renamed', toolIds: [t2, t1] }, false);
    expect((await repo.findOwned(user, saved.id))!.toolIds).toEqual([t1]);
    await configure(saved, { ...saved, toolIds: [t2, t1] }, true);
    expect((await repo.findOwned(user, saved.id))!.toolIds).toEqual([t2, t1]);
  });

  it('follows deletes of what assistants reference', async () => {
    const folders = new TypeormFolderRepository(db, 'folders');
    const folder = await folders.create(user, { name: 'Gone', color: null });
    if (folder === 'name_taken') throw new Error('unexpected');
    const tool = await newTool(user, 'gone');
    const phone = await newPhone(user);
    const saved = await create(user, config({ folderId: folder.id, toolIds: [tool], phoneNumberId: phone }));
    await folders.delete(user, folder.id);
    await sql(`DELETE FROM tools WHERE id = $1`, [tool]);
    await sql(`DELETE FROM phone_numbers WHERE id = $1`, [phone]);
    expect(await repo.findOwned(user, saved.id)).toEqual(
      expect.objectContaining({ folderId: null, toolIds: [], phoneNumberId: null }),
    );
    expect(await repo.delete(other, saved.id)).toBe(false);
    expect(await repo.delete(user, saved.id)).toBe(true);
    expect(await sql(`SELECT 1 FROM assistant_tools WHERE assistant_id = $1`, [saved.id])).toEqual([]);
  });

  it("lets only one inbound assistant answer on a number, without aborting the caller's transaction", async () => {
    const phone = await newPhone(user);
    await create(user, config({ type: 'inbound', phoneNumberId: phone }));
    const outcome = await db.transaction(async () => {
      const second = await repo.create(user, config({ type: 'inbound', phoneNumberId: phone }));
      const after = await sql<{ n: string }>(`SELECT count(*) AS n FROM assistants WHERE phone_number_id = $1`, [
        phone,
      ]);
      return { second, count: Number(after[0].n) };
    });
    expect(outcome).toEqual({ second: 'inbound_number_taken', count: 1 });
    expect(await repo.create(user, config({ type: 'outbound', phoneNumberId: phone }))).toEqual(
      expect.objectContaining({ phoneNumberId: phone }),
    );
  });

  it('answers which references the user owns, in one query', async () => {
    const folders = new TypeormFolderRepository(db, 'folders');
    const mine = await folders.create(user, { name: 'Mine', color: null });
    const theirs = await folders.create(other, { name: 'Theirs', color: null });
    if (mine === 'name_taken' || theirs === 'name_taken') throw new Error('unexpected');
    const tool = await newTool(user, 'named');
    const foreignTool = await newTool(other, 'foreign');
    const phone = await newPhone(user);
    const holder = await create(user, config({ type: 'inbound', phoneNumberId: phone }));
    const query: ReferenceQuery = {
      folderIds: [mine.id, theirs.id],
      knowledgeBaseIds: [999999],
      phoneNumberIds: [phone],
      labelIds: [],
      toolIds: [tool, foreignTool],
      eventTypeIds: [],
      assistantIds: [holder.id],
      inboundNumber: { phoneNumberId: phone, exceptAssistantId: null },
    };
    const owned = await repo.findOwnedReferences(user, query);
    expect(owned).toEqual({
      folderIds: new Set([mine.id]),
      knowledgeBaseIds: new Set(),
      phoneNumberIds: new Set([phone]),
      labelIds: new Set(),
      toolNames: new Map([[tool, 'named']]),
      eventTypeIds: new Set(),
      assistantIds: new Set([holder.id]),
      inboundNumberTaken: true,
    });
    expect(
      (
        await repo.findOwnedReferences(user, {
          ...query,
          inboundNumber: { phoneNumberId: phone, exceptAssistantId: holder.id },
        })
      ).inboundNumberTaken,
    ).toBe(false);
    expect((await repo.findOwnedReferences(other, query)).folderIds).toEqual(new Set([theirs.id]));
  });

  it('lists outbound assistants of one user in id order with the outbound-list columns', async () => {
    const u = await newUser();
    const first = await create(u, config({ name: 'B', variables: { a: '1' } }));
    await create(u, config({ name: 'In', type: 'inbound' }));
    const second = await create(u, config({ name: 'A' }));
    const list = await repo.listOutbound(u);
    expect(list.map((x) => x.id)).toEqual([first.id, second.id]);
    expect(list[0]).toEqual({
      id: first.id,
      userId: u,
      name: 'B',
      type: 'outbound',
      mode: 'pipeline',
      status: 'inactive',
      voiceId: 1,
      languageId: 1,
      timezone: 'UTC',
      initialMessage: '',
      systemPrompt: '',
      variables: { a: '1' },
      webhookUrl: null,
      isWebhookActive: false,
      createdAt: first.createdAt,
      updatedAt: first.updatedAt,
    });
  });

  it('lists every assistant of one user id ascending, with the same filters as the page', async () => {
    const u = await newUser();
    const first = await create(u, config({ name: 'First' }));
    const inbound = await create(u, config({ name: 'In', type: 'inbound' }));
    const third = await create(u, config({ name: 'Third' }));
    await create(await newUser(), config({ name: 'Not theirs' }));
    expect(await repo.listAll(u, {})).toEqual(
      [first, inbound, third].map((a) =>
        expect.objectContaining({ id: a.id, name: a.name, toolIds: [], labelIds: [] }),
      ),
    );
    expect((await repo.listAll(u, { type: 'outbound' })).map((a) => a.id)).toEqual([first.id, third.id]);
    expect(await repo.listAll(u, { status: 'active' })).toEqual([]);
  });

  it('stores status, webhook and compliance changes', async () => {
    const saved = await create(user, config({ webhookUrl: 'https://h.example.com/x', isWebhookActive: true }));
    expect((await change(saved, { kind: 'status', status: 'active' })).status).toBe('active');
    await change(saved, { kind: 'webhook', webhook: { isWebhookActive: false, webhookUrl: null } });
    expect(await repo.setCompliance(saved.id, true, 'r')).toBe(true);
    expect(await repo.setCompliance(999999, true, null)).toBe(false);
    expect(await repo.findOwned(user, saved.id)).toEqual(
      expect.objectContaining({ status: 'active', isWebhookActive: false, webhookUrl: null, complianceBlocked: true }),
    );
  });
});
