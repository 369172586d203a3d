import { ok, RuntimeConfig } from '@voiceplane/domain';
import { CallChanges, CryptoIds, NewCall } from '@voiceplane/application';
import { createTestDatabase, eventually, TestDatabase } from '@voiceplane/test-env';
import { Database } from '../../database';
import { TypeormOutbox } from '../outbox-writer';
import { TypeormCallRepository } from './call-repository';
import { TypeormCallToolContext } from './call-tool-context';

/** Persistence of calls and their runtime events (PostgreSQL with DATABASE_URL, else embedded). */
describe('call persistence', () => {
  let tdb: TestDatabase;
  let db: Database;
  let repo: TypeormCallRepository;
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
  // Keys deliberately out of alphabetical order: they must come back as written.
  const config = { variables: { zeta: '1', alpha: '2' }, direction: 'outbound' } as unknown as RuntimeConfig;
  const at = new Date('2026-03-01T10:00:00.000Z');
  const newCall = (over: Partial<NewCall> = {}): NewCall => ({
    userId: user,
    assistantId: 101,
    direction: 'outbound',
    channel: 'phone',
    status: 'initiated',
    customerPhone: '+14155551234',
    line: { phoneNumberId: 41, phoneNumber: '+14155550000', sip: null },
    variables: { zeta: 'z', alpha: 'a' },
    runtimeConfig: config,
    now: at,
    ...over,
  });

  /** Writes changes the way every use case does, through a decision on the locked call. */
  const write = async (id: number, changes: CallChanges, when: Date) => {
    await repo.update(id, async () => ok({ changes, at: when, answer: null }));
    return (await repo.findById(id))!;
  };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    db = new Database(tdb.dataSource);
    repo = new TypeormCallRepository(db, new TypeormOutbox(db, new CryptoIds(), { now: () => at }));
    user = await newUser();
    other = await newUser();
  });
  afterAll(async () => tdb.close());

  it('stores every column and reads documents back with their key order', async () => {
    const { call, created } = await repo.create(
      newCall({ senderId: 12, conversationId: '9b2f6c1e-4a7d-4c1b-9d7e-2f1a0c3b5e66', automationRunId: 'run_x' }),
    );
    expect(created).toBe(true);
    expect(call).toEqual({
      id: expect.any(Number),
      userId: user,
      assistantId: 101,
      direction: 'outbound',
      channel: 'phone',
      status: 'initiated',
      customerPhone: '+14155551234',
      assistantPhone: '+14155550000',
      phoneNumberId: 41,
      senderId: 12,
      conversationId: '9b2f6c1e-4a7d-4c1b-9d7e-2f1a0c3b5e66',
      automationRunId: 'run_x',
      campaignId: null,
      leadId: null,
      variables: { zeta: 'z', alpha: 'a' },
      extractedVariables: {},
      duration: 0,
      cost: 0,
      recordingUrl: null,
      endedReason: null,
      transcript: [],
      runtimeConfig: config,
      providerCallId: null,
      createdAt: at,
      answeredAt: null,
      finishedAt: null,
      updatedAt: at,
    });
    expect(Object.keys(call.variables)).toEqual(['zeta', 'alpha']);
    expect(JSON.stringify(call.runtimeConfig)).toBe(JSON.stringify(config));

    const ended = await write(
      call.id,
      {
        status: 'completed',
        answeredAt: at,
        finishedAt: new Date('2026-03-01T10:01:27.000Z'),
        duration: 87,
        cost: 0.2,
        recordingUrl: 'https://r.example/1.mp3',
        endedReason: 'hangup',
        extractedVariables: { summary: 's', status: true },
        transcript: [{ role: 'assistant', content: 'Hi', at: at.toISOString() }],
      },
      new Date('2026-03-01T10:01:28.000Z'),
    );
    expect(ended).toEqual(
      expect.objectContaining({
        status: 'completed',
        duration: 87,
        cost: 0.2,
        recordingUrl: 'https://r.example/1.mp3',
        endedReason: 'hangup',
        updatedAt: new Date('2026-03-01T10:01:28.000Z'),
      }),
    );
    expect(Object.keys(ended.extractedVariables)).toEqual(['summary', 'status']);
    expect(await repo.findById(call.id)).toEqual(ended);
  });

  it('gives the tool gateway the call as it started: variables, zone and attached tools', async () => {
    const started = {
      ...config,
      tools: [
        { id: 7, name: 'a' },
        { id: 9, name: 'b' },
      ],
      assistant: { timezone: 'Europe/Berlin', variables: { company: 'Acme' } },
    } as unknown as RuntimeConfig;
    const { call } = await repo.create(newCall({ runtimeConfig: started, conversationId: null }));
    const context = new TypeormCallToolContext(db);
    expect(await context.forCall(call.id)).toEqual({
      callId: call.id,
      userId: user,
      assistantId: 101,
      customerPhone: '+14155551234',
      assistantPhone: '+14155550000',
      direction: 'outbound',
      channel: 'phone',
      conversationId: null,
      timezone: 'Europe/Berlin',
      variables: { zeta: 'z', alpha: 'a' },
      assistantVariables: { company: 'Acme' },
      ended: false,
      attachedToolIds: [7, 9],
      knowledgeBaseIds: [],
    });
    await write(call.id, { status: 'canceled' }, at);
    expect((await context.forCall(call.id))?.ended).toBe(true);
    expect(await context.forCall(999_999)).toBeNull();
  });

  it('lets the gateway run the tools of the assistants the call may be handed to', async () => {
    const started = {
      ...config,
      tools: [{ id: 7, name: 'a' }],
      assistant: { timezone: 'UTC', variables: {} },
      transfer_assistants: [
        { tools: [{ id: 11, name: 'c' }] },
        { tools: [] },
        {
          tools: [
            { id: 12, name: 'd' },
            { id: 7, name: 'a' },
          ],
        },
      ],
    } as unknown as RuntimeConfig;
    const { call } = await repo.create(newCall({ runtimeConfig: started, conversationId: null }));
    expect((await new TypeormCallToolContext(db).forCall(call.id))?.attachedToolIds).toEqual([7, 11, 12, 7]);
  });

  it('keeps calls of one account from another', async () => {
    const { call } = await repo.create(newCall());
    expect(await repo.findOwned(user, call.id)).not.toBeNull();
    expect(await repo.findOwned(other, call.id)).toBeNull();
    expect((await repo.list(other, {}, { page: 1, perPage: 15 })).total).toBe(0);
  });

  it('returns the existing call for a repeated provider call id, also when both arrive at once', async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() => repo.create(newCall({ direction: 'inbound', status: 'ringing', providerCallId: 'lk-race' }))),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.call.id)).size).toBe(1);
    expect((await repo.findByProviderCallId('lk-race'))?.id).toBe(results[0].call.id);
  });

  it('remembers accepted runtime events per call', async () => {
    const { call } = await repo.create(newCall());
    await repo.recordRuntimeEvent(call.id, 'e-1', { type: 'ringing', status: 'ringing' }, at);
    expect(await repo.findRuntimeEvent(call.id, 'e-1')).toEqual({ type: 'ringing', status: 'ringing' });
    expect(await repo.findRuntimeEvent(call.id, 'e-2')).toBeNull();
    await expect(
      repo.recordRuntimeEvent(call.id, 'e-1', { type: 'answered', status: 'in-progress' }, at),
    ).rejects.toThrow();
  });

  it('holds a call locked while a change to it is decided', async () => {
    const { call } = await repo.create(newCall());
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const first = repo.update(call.id, async () => {
      order.push('first locked');
      await held;
      order.push('first done');
      return ok({ changes: { status: 'ringing' as const }, at, answer: null });
    });
    await eventually(() => order.includes('first locked'), 'the first update to lock the call');
    const second = repo.update(call.id, async (seen) => {
      order.push(`second saw ${seen.status}`);
      return ok({ changes: {}, at, answer: null });
    });
    if (process.env.DATABASE_URL) {
      await eventually(
        async () =>
          (await sql(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`))
            .length > 0,
        'the second update to wait for the lock',
      );
    } else {
      // Embedded PGlite has one session and no lock waits to see: give the second update a moment in which it could (wrongly) run.
      await new Promise((r) => setTimeout(r, 100));
    }
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first locked', 'first done', 'second saw ringing']);
  });

  it('finds the inbound route of a number and of a SIP trunk, preferring an answering assistant', async () => {
    const number = Number(
      (
        await sql<{ id: string }>(
          `INSERT INTO phone_numbers (user_id, phone_number, type, country_code) VALUES ($1, '+14155550177', 'purchased', 'US') RETURNING id`,
          [user],
        )
      )[0].id,
    );
    expect(await repo.inboundRoute('+14155550177', null)).toEqual({
      userId: user,
      phoneNumberId: number,
      phoneNumber: '+14155550177',
      sip: null,
      assistantId: null,
    });
    expect(await repo.inboundRoute('14155550177', null)).toEqual(expect.objectContaining({ phoneNumberId: number }));
    expect(await repo.inboundRoute('+14155550178', null)).toBeNull();

    // The same extension on two accounts' trunks: the one whose inbound assistant can answer wins.
    const trunkOf = async (userId: number, trunkId: string) => {
      const id = Number(
        (
          await sql<{ id: string }>(
            `INSERT INTO phone_numbers (user_id, phone_number, type, country_code) VALUES ($1, '100', 'sip', 'DE') RETURNING id`,
            [userId],
          )
        )[0].id,
      );
      await sql(
        `INSERT INTO sip_trunks (id, sip_username, sip_password_cipher, sip_address, sip_calling_format, inbound_authorization_type, inbound_trunk_id, outbound_trunk_id, inbound_route_id)
        VALUES ($1, 'u', 'c', 'sip.example', 'national', 'auth', $2, $3, 'SDR_x')`,
        [id, trunkId, `${trunkId}-out`],
      );
      return id;
    };
    const idle = await trunkOf(other, 'ST_idle0000001');
    const answering = await trunkOf(user, 'ST_live0000001');
    const assistant = Number(
      (
        await sql<{ id: string }>(
          `INSERT INTO assistants (user_id, status, name, type, mode, timezone, initial_message, system_prompt, endpoint_type, ambient_sound, language_id,
      phone_number_id, voice_stability, voice_similarity, speech_speed, llm_temperature, max_duration, max_silence_duration, ringing_time, reengagement_interval,
      endpoint_sensitivity, interrupt_sensitivity, ambient_sound_volume, conversation_inactivity_timeout, tts_emotion_enabled, allow_interruptions, fillers, record,
      enable_noise_cancellation, wait_for_customer, end_call_on_voicemail, is_webhook_active, send_webhook_only_on_completed, include_recording_in_webhook,
      post_call_evaluation, conversation_ended_retrigger)
      VALUES ($1, 'active', 'In', 'inbound', 'pipeline', 'UTC', '', '', 'vad', 'off', 1, $2, 0.7, 0.5, 1, 0.1, 600, 40, 30, 30, 0.5, 0.5, 0.5, 30,
        true, true, false, false, true, false, true, false, true, true, true, false) RETURNING id`,
          [user, answering],
        )
      )[0].id,
    );
    expect(await repo.inboundRoute('100', null)).toEqual({
      userId: user,
      phoneNumberId: answering,
      phoneNumber: '100',
      assistantId: assistant,
      sip: { outboundTrunkId: 'ST_live0000001-out', callingFormat: 'national', outboundProxy: false },
    });
    expect(await repo.inboundRoute('ignored', 'ST_idle0000001')).toEqual(
      expect.objectContaining({ userId: other, phoneNumberId: idle, assistantId: null }),
    );
  });
});
