import { ASSISTANT_DEFAULTS, AssistantConfig, builtInTool, ReferenceQuery } from '@voiceplane/domain';
import { createTestDatabase, TestDatabase } from '@voiceplane/test-env';
import { Database } from '../../database';
import { TypeormAssistantRepository } from './assistant-repository';
import { TypeormCatalogRepository } from './catalog-repository';
import { TypeormGroupRepository } from './group-repository';
import { TypeormKnowledgeBaseRepository } from './knowledge-base-repository';
import { TypeormEventTypeRepository } from './event-type-repository';

/** Persistence of assistants and their references on the real database (PostgreSQL with DATABASE_URL). */
describe('assistant persistence', () => {
  let tdb: TestDatabase;
  let db: Database;
  let repo: TypeormAssistantRepository;
  let user = 0;
  let other = 0;

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => db.query<T>(text, params);
  const newUser = async () => Number((await sql<{ id: string }>(`INSERT INTO users (name, email, plan) VALUES ('U', $1, '{}') RETURNING id`, [`u${Math.random()}@example.test`]))[0].id);
  const newTool = async (userId: number, name: string) => Number((await sql<{ id: string }>(`INSERT INTO tools (user_id, name, description) VALUES ($1, $2, 'd') RETURNING id`, [userId, name]))[0].id);
  const newPhone = async (userId: number) => Number((await sql<{ id: string }>(`INSERT INTO phone_numbers (user_id, phone_number, type, country_code) VALUES ($1, '+14155550100', 'sip', 'US') RETURNING id`, [userId]))[0].id);
  const config = (over: Partial<AssistantConfig> = {}): AssistantConfig => ({
    ...ASSISTANT_DEFAULTS, name: 'Support', voice_id: 1, llm_model_id: 1, multimodal_model_id: null, knowledgebase_mode: null, ...over,
  });
  const create = async (userId: number, c: AssistantConfig) => {
    const saved = await repo.create(userId, c);
    if (saved === 'inbound_number_taken') throw new Error('unexpected conflict');
    return saved;
  };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    db = new Database(tdb.dataSource);
    repo = new TypeormAssistantRepository(db);
    user = await newUser();
    other = await newUser();
  });
  afterAll(async () => { await tdb.close(); });

  it('seeds exactly the §3.10 catalogue', async () => {
    const catalog = await new TypeormCatalogRepository(db).catalog();
    expect(catalog.languages.map((l) => [l.id, l.iso_2])).toEqual([[1, 'en'], [2, 'ro'], [3, 'fr'], [4, 'es'], [5, 'de'], [6, 'lt'], [7, 'it'], [8, 'ar'], [9, 'pt'], [10, 'da'], [11, 'nl'], [12, 'pl'], [13, 'fi'], [14, 'he']]);
    expect(catalog.models).toEqual([
      { id: 1, name: 'gpt-4o-mini', provider: 'openai', kind: 'llm' }, { id: 2, name: 'gpt-4.1', provider: 'openai', kind: 'llm' },
      { id: 3, name: 'gpt-4o-realtime', provider: 'openai', kind: 'multimodal' },
    ]);
    expect(catalog.providers).toEqual([{ id: 1, name: 'elevenlabs', kind: 'synthesizer' }, { id: 2, name: 'cartesia', kind: 'synthesizer' }, { id: 3, name: 'deepgram', kind: 'transcriber' }]);
    expect(catalog.voices.map((v) => [v.id, v.name, v.language_id, v.synthesizer_provider_id, v.modes])).toEqual([
      [1, 'Ava', 1, 1, ['pipeline', 'dualplex']], [2, 'Noah', 1, 1, ['pipeline', 'dualplex']], [3, 'Lena', 5, 2, ['pipeline', 'dualplex']],
      [4, 'Léa', 3, 2, ['pipeline', 'dualplex']], [5, 'alloy', null, null, ['multimodal']], [6, 'verse', null, null, ['multimodal']],
    ]);
  });

  it('round-trips every configuration field, attachments in their order', async () => {
    const folders = new TypeormGroupRepository(db, 'folders');
    const labels = new TypeormGroupRepository(db, 'labels');
    const folder = await folders.create(user, { name: 'F', color: 'red' });
    const [l1, l2] = [await labels.create(user, { name: 'L1', color: null }), await labels.create(user, { name: 'L2', color: null })];
    if (folder === 'name_taken' || l1 === 'name_taken' || l2 === 'name_taken') throw new Error('unexpected');
    const kb = await new TypeormKnowledgeBaseRepository(db).create(user, { name: 'KB', description: null, status: 'active' });
    const et = await new TypeormEventTypeRepository(db).create(user, { name: 'Call', duration_minutes: 30 });
    const [t1, t2] = [await newTool(user, 'a'), await newTool(user, 'b')];
    const full = config({
      type: 'inbound', mode: 'dualplex', timezone: 'Europe/Berlin', initial_message: 'Hi', system_prompt: 'P', knowledgebase_mode: 'function_call',
      reengagement_prompt: 'R', voice_mail_message: 'V', endpoint_type: 'ai', ambient_sound: 'nature', webhook_url: 'https://h.example.com/a',
      conversation_ended_webhook_url: 'https://h.example.com/b', voice_id: 2, language_id: 5, llm_model_id: 2, multimodal_model_id: 3,
      chat_llm_fallback_id: 1, knowledgebase_id: kb.id, folder_id: folder.id, phone_number_id: await newPhone(user), synthesizer_provider_id: 2,
      transcriber_provider_id: null, secondary_language_ids: [3, 1], label_ids: [l2.id, l1.id], tool_ids: [t2, t1],
      tools: [builtInTool({ type: 'calendar_integration', data: { event_type_id: et.id } }), builtInTool({ type: 'collect_keypad', data: { timeout: 9 } })],
      post_call_schema: [{ name: 'x', type: 'float', description: 'd' }], turn_detection_threshold: 0.25, voice_stability: 0.1,
      voice_similarity: 0.2, speech_speed: 0.75, llm_temperature: 0.3, max_duration: 20, max_silence_duration: 1, max_initial_silence_duration: 5,
      ringing_time: 1, reengagement_interval: 600, endpoint_sensitivity: 4.5, interrupt_sensitivity: 0.25, min_interrupt_words: 0,
      ambient_sound_volume: 0, conversation_inactivity_timeout: 1, tts_emotion_enabled: false, allow_interruptions: true, fillers: false,
      record: true, enable_noise_cancellation: false, wait_for_customer: true, end_call_on_voicemail: false, is_webhook_active: true,
      send_webhook_only_on_completed: false, include_recording_in_webhook: false, post_call_evaluation: false, conversation_ended_retrigger: true,
      filler_config: { positive: ['a'], negative: [], question: ['b'], neutral: [] }, variables: { k: 'v' },
    });
    const saved = await create(user, full);
    expect(saved).toEqual({ ...full, id: expect.any(Number), user_id: user, status: 'inactive', compliance_blocked: false, created_at: expect.any(Date), updated_at: expect.any(Date) });
    expect(await repo.findOwned(user, saved.id)).toEqual(saved);
    expect(await repo.findOwned(other, saved.id)).toBeNull();
  });

  it('rewrites attachments only when asked', async () => {
    const [t1, t2] = [await newTool(user, 'c'), await newTool(user, 'd')];
    const saved = await create(user, config({ tool_ids: [t1] }));
    await repo.update(saved.id, { ...saved, name: 'Renamed', tool_ids: [t2, t1] }, { toolIds: false, labelIds: false });
    expect((await repo.findOwned(user, saved.id))!.tool_ids).toEqual([t1]);
    await repo.update(saved.id, { ...saved, tool_ids: [t2, t1] }, { toolIds: true, labelIds: false });
    expect((await repo.findOwned(user, saved.id))!.tool_ids).toEqual([t2, t1]);
  });

  it('follows deletes of what assistants reference', async () => {
    const folders = new TypeormGroupRepository(db, 'folders');
    const folder = await folders.create(user, { name: 'Gone', color: null });
    if (folder === 'name_taken') throw new Error('unexpected');
    const tool = await newTool(user, 'gone');
    const phone = await newPhone(user);
    const saved = await create(user, config({ folder_id: folder.id, tool_ids: [tool], phone_number_id: phone }));
    await folders.delete(user, folder.id);
    await sql(`DELETE FROM tools WHERE id = $1`, [tool]);
    await sql(`DELETE FROM phone_numbers WHERE id = $1`, [phone]);
    expect(await repo.findOwned(user, saved.id)).toEqual(expect.objectContaining({ folder_id: null, tool_ids: [], phone_number_id: null }));
    expect(await repo.delete(other, saved.id)).toBe(false);
    expect(await repo.delete(user, saved.id)).toBe(true);
    expect(await sql(`SELECT 1 FROM assistant_tools WHERE assistant_id = $1`, [saved.id])).toEqual([]);
  });

  it('lets only one inbound assistant answer on a number, without aborting the caller\'s transaction', async () => {
    const phone = await newPhone(user);
    await create(user, config({ type: 'inbound', phone_number_id: phone }));
    const outcome = await db.transaction(async () => {
      const second = await repo.create(user, config({ type: 'inbound', phone_number_id: phone }));
      const after = await sql<{ n: string }>(`SELECT count(*) AS n FROM assistants WHERE phone_number_id = $1`, [phone]);
      return { second, count: Number(after[0].n) };
    });
    expect(outcome).toEqual({ second: 'inbound_number_taken', count: 1 });
    expect(await repo.create(user, config({ type: 'outbound', phone_number_id: phone }))).toEqual(expect.objectContaining({ phone_number_id: phone }));
  });

  it('answers which references the user owns, in one query', async () => {
    const folders = new TypeormGroupRepository(db, 'folders');
    const mine = await folders.create(user, { name: 'Mine', color: null });
    const theirs = await folders.create(other, { name: 'Theirs', color: null });
    if (mine === 'name_taken' || theirs === 'name_taken') throw new Error('unexpected');
    const tool = await newTool(user, 'named');
    const foreignTool = await newTool(other, 'foreign');
    const phone = await newPhone(user);
    const holder = await create(user, config({ type: 'inbound', phone_number_id: phone }));
    const query: ReferenceQuery = {
      folderIds: [mine.id, theirs.id], knowledgeBaseIds: [999999], phoneNumberIds: [phone], labelIds: [], toolIds: [tool, foreignTool],
      eventTypeIds: [], assistantIds: [holder.id], inboundNumber: { phoneNumberId: phone, exceptAssistantId: null },
    };
    const owned = await repo.findOwnedReferences(user, query);
    expect(owned).toEqual({
      folderIds: new Set([mine.id]), knowledgeBaseIds: new Set(), phoneNumberIds: new Set([phone]), labelIds: new Set(),
      toolNames: new Map([[tool, 'named']]), eventTypeIds: new Set(), assistantIds: new Set([holder.id]), inboundNumberTaken: true,
    });
    expect((await repo.findOwnedReferences(user, { ...query, inboundNumber: { phoneNumberId: phone, exceptAssistantId: holder.id } })).inboundNumberTaken).toBe(false);
    expect((await repo.findOwnedReferences(other, query)).folderIds).toEqual(new Set([theirs.id]));
  });

  it('lists outbound assistants of one user in id order with the A.2 columns', async () => {
    const u = await newUser();
    const first = await create(u, config({ name: 'B', variables: { a: '1' } }));
    await create(u, config({ name: 'In', type: 'inbound' }));
    const second = await create(u, config({ name: 'A' }));
    const list = await repo.listOutbound(u);
    expect(list.map((x) => x.id)).toEqual([first.id, second.id]);
    expect(list[0]).toEqual({
      id: first.id, user_id: u, name: 'B', type: 'outbound', mode: 'pipeline', status: 'inactive', voice_id: 1, language_id: 1, timezone: 'UTC',
      initial_message: '', system_prompt: '', variables: { a: '1' }, webhook_url: null, is_webhook_active: false, created_at: first.created_at, updated_at: first.updated_at,
    });
  });

  it('lists every assistant of one user id ascending, with the same filters as the page', async () => {
    const u = await newUser();
    const first = await create(u, config({ name: 'First' }));
    const inbound = await create(u, config({ name: 'In', type: 'inbound' }));
    const third = await create(u, config({ name: 'Third' }));
    await create(await newUser(), config({ name: 'Not theirs' }));
    expect(await repo.listAll(u, {})).toEqual([first, inbound, third].map((a) => expect.objectContaining({ id: a.id, name: a.name, tool_ids: [], label_ids: [] })));
    expect((await repo.listAll(u, { type: 'outbound' })).map((a) => a.id)).toEqual([first.id, third.id]);
    expect(await repo.listAll(u, { status: 'active' })).toEqual([]);
  });

  it('stores status, webhook and compliance changes', async () => {
    const saved = await create(user, config({ webhook_url: 'https://h.example.com/x', is_webhook_active: true }));
    expect((await repo.setStatus(saved.id, 'active')).status).toBe('active');
    await repo.setWebhook(saved.id, { is_webhook_active: false, webhook_url: null });
    expect(await repo.setCompliance(saved.id, true, 'r')).toBe(true);
    expect(await repo.setCompliance(999999, true, null)).toBe(false);
    expect(await repo.findOwned(user, saved.id)).toEqual(expect.objectContaining({ status: 'active', is_webhook_active: false, webhook_url: null, compliance_blocked: true }));
  });
});
