import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/** Assistant routes through the composed app, on a fresh database. */

const INVALID = 'The given data was invalid.';
const NOT_FOUND = { message: 'Assistant not found' };
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const isoDate = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

describe('assistants', () => {
  let t: TestApi;
  let a: TestUser;
  let b: TestUser;

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    t.db.dataSource.query(text, params) as Promise<T[]>;
  const insertTool = async (user: TestUser, name: string) =>
    Number(
      (
        await sql<{ id: string }>(
          `INSERT INTO tools (user_id, name, description, endpoint, method) VALUES ($1, $2, 'Looks things up', 'https://api.example.com/x', 'GET') RETURNING id`,
          [user.id, name],
        )
      )[0].id,
    );
  const insertPhone = async (user: TestUser, phone = '+14155550100') =>
    Number(
      (
        await sql<{ id: string }>(
          `INSERT INTO phone_numbers (user_id, phone_number, type, country_code) VALUES ($1, $2, 'sip', 'US') RETURNING id`,
          [user.id, phone],
        )
      )[0].id,
    );
  const create = async (user: TestUser, body: Record<string, unknown>) => {
    const res = await t.http.post('/api/user/assistant').set(user.auth).send(body);
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id as number;
  };
  const get = async (user: TestUser, id: number) =>
    (await t.http.get(`/api/user/assistant/${id}`).set(user.auth)).body.data;
  const group = async (user: TestUser, kind: 'folder' | 'label', name: string) =>
    (await t.http.post(`/api/user/${kind}`).set(user.auth).send({ name })).body.data.id as number;
  const knowledgeBase = async (user: TestUser) =>
    (await t.http.post(`/api/admin/users/${user.id}/knowledgebases`).set(t.admin).send({ name: 'Product FAQ' })).body
      .data.id as number;
  const eventType = async (user: TestUser) =>
    (
      await t.http
        .post(`/api/admin/users/${user.id}/event-types`)
        .set(t.admin)
        .send({ name: '30-minute call', duration_minutes: 30 })
    ).body.data.id as number;
  const events = (topic: string, assistantId: number) =>
    sql<{ payload: unknown }>(
      `SELECT payload FROM outbox_events WHERE topic = $1 AND (payload->>'assistant_id')::bigint = $2 ORDER BY seq`,
      [topic, assistantId],
    );
  const expectInvalid = (res: { status: number; body: unknown }, errors: Record<string, string[]>) => {
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { message: INVALID, errors } });
  };

  beforeAll(async () => {
    // The SSRF write-time check is on, as in production (tests default to the development override).
    t = await createTestApi({ config: { allowPrivateTargets: false } });
    a = await t.createUser();
    b = await t.createUser();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /api/user/assistant', () => {
    it('creates an inactive assistant from a name alone, with every default', async () => {
      const res = await t.http.post('/api/user/assistant').set(a.auth).send({ name: 'Support' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        message: 'Assistant created successfully',
        data: { id: expect.any(Number), name: 'Support', status: 'inactive', type: 'outbound', mode: 'pipeline' },
      });
      expect(await get(a, res.body.data.id)).toEqual({
        id: res.body.data.id,
        uuid: expect.stringMatching(UUID_V4),
        user_id: a.id,
        name: 'Support',
        type: 'outbound',
        mode: 'pipeline',
        status: 'inactive',
        compliance_blocked: false,
        timezone: 'UTC',
        initial_message: '',
        system_prompt: '',
        knowledgebase_mode: null,
        reengagement_prompt: null,
        voice_mail_message: null,
        endpoint_type: 'vad',
        ambient_sound: 'off',
        webhook_url: null,
        conversation_ended_webhook_url: null,
        voice_id: 1,
        language_id: 1,
        llm_model_id: 1,
        multimodal_model_id: null,
        chat_llm_fallback_id: null,
        knowledgebase_id: null,
        folder_id: null,
        phone_number_id: null,
        synthesizer_provider_id: null,
        transcriber_provider_id: null,
        secondary_language_ids: [],
        label_ids: [],
        tool_ids: [],
        tools: [],
        post_call_schema: [],
        turn_detection_threshold: null,
        voice_stability: 0.7,
        voice_similarity: 0.5,
        speech_speed: 1,
        llm_temperature: 0.1,
        max_duration: 600,
        max_silence_duration: 40,
        max_initial_silence_duration: null,
        ringing_time: 30,
        reengagement_interval: 30,
        endpoint_sensitivity: 0.5,
        interrupt_sensitivity: 0.5,
        min_interrupt_words: null,
        ambient_sound_volume: 0.5,
        conversation_inactivity_timeout: 30,
        tts_emotion_enabled: true,
        allow_interruptions: true,
        fillers: false,
        record: false,
        enable_noise_cancellation: true,
        wait_for_customer: false,
        end_call_on_voicemail: true,
        is_webhook_active: false,
        send_webhook_only_on_completed: true,
        include_recording_in_webhook: true,
        post_call_evaluation: true,
        conversation_ended_retrigger: false,
        filler_config: null,
        variables: {},
        created_at: isoDate,
        updated_at: isoDate,
      });
    });

    it('stores every field as sent, normalising tools, fillers, variables and id lists', async () => {
      const folder = await group(a, 'folder', 'Sales');
      const [l1, l2] = [await group(a, 'label', 'vip'), await group(a, 'label', 'beta')];
      const [t1, t2] = [await insertTool(a, 'check_order'), await insertTool(a, 'book_slot')];
      const phone = await insertPhone(a, '+14155550101');
      const kb = await knowledgeBase(a);
      const et = await eventType(a);
      const target = await create(a, { name: 'Transfer target' });
      const body = {
        name: '  Full  ',
        type: 'inbound',
        mode: 'pipeline',
        timezone: 'europe/berlin',
        initial_message: 'Hello!',
        system_prompt: 'Be brief.',
        knowledgebase_mode: 'prompt',
        reengagement_prompt: 'Still there?',
        voice_mail_message: 'Call us back.',
        endpoint_type: 'ai',
        ambient_sound: 'cafe',
        webhook_url: 'https://hooks.example.com/calls',
        conversation_ended_webhook_url: 'https://hooks.example.com/conv',
        voice_id: '3',
        language_id: 5,
        llm_model_id: 2,
        multimodal_model_id: null,
        chat_llm_fallback_id: 1,
        knowledgebase_id: kb,
        folder_id: String(folder),
        phone_number_id: phone,
        synthesizer_provider_id: 2,
        transcriber_provider_id: 3,
        secondary_language_ids: [1, 3, 1],
        label_ids: [l2, l1],
        tool_ids: [t2, t1, t2],
        tools: [
          { type: 'end_call', description: 'When done' },
          {
            type: 'call_transfer',
            data: { phone_number: '+14155550199', warm_transfer: 'true', warm_transfer_message: 'Connecting you' },
          },
          { type: 'dtmf_input' },
          { type: 'collect_keypad', timeout: '10', stop_key: '*' },
          { type: 'calendar_integration', data: { event_type_id: et } },
          { type: 'assistant_transfer', assistant_id: target, speak_transfer_greeting: 0 },
        ],
        post_call_schema: [
          { name: 'budget', type: 'int', description: 'Monthly budget' },
          { name: 'interested', type: 'bool' },
        ],
        turn_detection_threshold: 0.4,
        voice_stability: '0.9',
        voice_similarity: 0.8,
        speech_speed: 1.2,
        llm_temperature: 0,
        max_duration: 1200,
        max_silence_duration: 360,
        max_initial_silence_duration: 120,
        ringing_time: 60,
        reengagement_interval: 7,
        endpoint_sensitivity: 5,
        interrupt_sensitivity: 0,
        min_interrupt_words: 10,
        ambient_sound_volume: 1,
        conversation_inactivity_timeout: 1440,
        tts_emotion_enabled: false,
        allow_interruptions: false,
        fillers: true,
        record: '1',
        enable_noise_cancellation: false,
        wait_for_customer: true,
        end_call_on_voicemail: false,
        is_webhook_active: true,
        send_webhook_only_on_completed: false,
        include_recording_in_webhook: false,
        post_call_evaluation: false,
        conversation_ended_retrigger: true,
        filler_config: { positive: ['Great!'], question: ['Good question.'] },
        variables: { company: 'Acme', seats: 12, vip: true },
        unknown_field: 'ignored',
      };
      const id = await create(a, body);
      expect(await get(a, id)).toEqual({
        id,
        uuid: expect.stringMatching(UUID_V4),
        user_id: a.id,
        name: 'Full',
        type: 'inbound',
        mode: 'pipeline',
        status: 'inactive',
        compliance_blocked: false,
        timezone: 'Europe/Berlin',
        initial_message: 'Hello!',
        system_prompt: 'Be brief.',
        knowledgebase_mode: 'prompt',
        reengagement_prompt: 'Still there?',
        voice_mail_message: 'Call us back.',
        endpoint_type: 'ai',
        ambient_sound: 'cafe',
        webhook_url: 'https://hooks.example.com/calls',
        conversation_ended_webhook_url: 'https://hooks.example.com/conv',
        voice_id: 3,
        language_id: 5,
        llm_model_id: 2,
        multimodal_model_id: null,
        chat_llm_fallback_id: 1,
        knowledgebase_id: kb,
        folder_id: folder,
        phone_number_id: phone,
        synthesizer_provider_id: 2,
        transcriber_provider_id: 3,
        secondary_language_ids: [1, 3],
        label_ids: [l2, l1],
        tool_ids: [t2, t1],
        tools: [
          { type: 'end_call', data: { description: 'When done' } },
          {
            type: 'call_transfer',
            data: {
              phone_number: '+14155550199',
              description: null,
              warm_transfer: true,
              warm_transfer_message: 'Connecting you',
            },
          },
          { type: 'dtmf_input', data: { description: null } },
          { type: 'collect_keypad', data: { description: null, timeout: 10, stop_key: '*' } },
          { type: 'calendar_integration', data: { event_type_id: et, description: null } },
          {
            type: 'assistant_transfer',
            data: {
              assistant_id: target,
              description: null,
              message_before_transfer: null,
              speak_transfer_greeting: false,
            },
          },
        ],
        post_call_schema: [
          { name: 'budget', type: 'int', description: 'Monthly budget' },
          { name: 'interested', type: 'bool', description: null },
        ],
        turn_detection_threshold: 0.4,
        voice_stability: 0.9,
        voice_similarity: 0.8,
        speech_speed: 1.2,
        llm_temperature: 0,
        max_duration: 1200,
        max_silence_duration: 360,
        max_initial_silence_duration: 120,
        ringing_time: 60,
        reengagement_interval: 7,
        endpoint_sensitivity: 5,
        interrupt_sensitivity: 0,
        min_interrupt_words: 10,
        ambient_sound_volume: 1,
        conversation_inactivity_timeout: 1440,
        tts_emotion_enabled: false,
        allow_interruptions: false,
        fillers: true,
        record: true,
        enable_noise_cancellation: false,
        wait_for_customer: true,
        end_call_on_voicemail: false,
        is_webhook_active: true,
        send_webhook_only_on_completed: false,
        include_recording_in_webhook: false,
        post_call_evaluation: false,
        conversation_ended_retrigger: true,
        filler_config: { positive: ['Great!'], negative: [], question: ['Good question.'], neutral: [] },
        variables: { company: 'Acme', seats: '12', vip: 'true' },
        created_at: isoDate,
        updated_at: isoDate,
      });
    });

    it('answers the contract example: a missing name and an incompatible voice together', async () => {
      const res = await t.http.post('/api/user/assistant').set(a.auth).send({ mode: 'multimodal', voice_id: 1 });
      expectInvalid(res, {
        name: ['The name field is required.'],
        voice_id: ['The selected voice is not compatible with the chosen engine type.'],
      });
    });

    it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
      ['speech speed', { speech_speed: 1.3 }, { speech_speed: ['Speech speed must be between 0.7 and 1.2.'] }],
      ['speech speed low', { speech_speed: '0.6' }, { speech_speed: ['Speech speed must be between 0.7 and 1.2.'] }],
      ['speech speed type', { speech_speed: 'fast' }, { speech_speed: ['The speech speed must be a number.'] }],
      ['name too long', { name: 'x'.repeat(256) }, { name: ['The name may not be greater than 255 characters.'] }],
      ['name not a string', { name: 5 }, { name: ['The name must be a string.'] }],
      ['type', { type: 'both' }, { type: ['The selected type is invalid.'] }],
      ['mode', { mode: 'realtime' }, { mode: ['The selected mode is invalid.'] }],
      ['timezone', { timezone: 'Mars/Base' }, { timezone: ['The selected timezone is invalid.'] }],
      [
        'initial message',
        { initial_message: 'x'.repeat(1001) },
        { initial_message: ['The initial message may not be greater than 1000 characters.'] },
      ],
      [
        'system prompt',
        { system_prompt: 'x'.repeat(20001) },
        { system_prompt: ['The system prompt may not be greater than 20000 characters.'] },
      ],
      [
        'knowledge-base mode',
        { knowledgebase_mode: 'search' },
        { knowledgebase_mode: ['The selected knowledgebase mode is invalid.'] },
      ],
      ['endpoint type', { endpoint_type: 'smart' }, { endpoint_type: ['The selected endpoint type is invalid.'] }],
      ['ambient sound', { ambient_sound: 'rain' }, { ambient_sound: ['The selected ambient sound is invalid.'] }],
      ['webhook URL syntax', { webhook_url: 'not a url' }, { webhook_url: ['The webhook url must be a valid URL.'] }],
      [
        'webhook URL scheme',
        { webhook_url: 'ftp://hooks.example.com/x' },
        { webhook_url: ['The webhook url must be a valid URL.'] },
      ],
      [
        'webhook URL localhost',
        { webhook_url: 'http://localhost:8080/x' },
        { webhook_url: ['The webhook url must be a public http or https URL.'] },
      ],
      [
        'webhook URL private',
        { conversation_ended_webhook_url: 'http://192.168.1.10/x' },
        { conversation_ended_webhook_url: ['The conversation ended webhook url must be a public http or https URL.'] },
      ],
      [
        'webhook active without URL',
        { is_webhook_active: true },
        { webhook_url: ['The webhook url field is required when is webhook active is true.'] },
      ],
      ['voice id type', { voice_id: 'ava' }, { voice_id: ['The voice id must be an integer.'] }],
      ['unknown voice', { voice_id: 99 }, { voice_id: ['The selected voice id is invalid.'] }],
      [
        'multimodal voice in pipeline',
        { voice_id: 5 },
        { voice_id: ['The selected voice is not compatible with the chosen engine type.'] },
      ],
      ['unknown language', { language_id: 99 }, { language_id: ['The selected language id is invalid.'] }],
      [
        'unknown secondary language',
        { secondary_language_ids: [2, 99] },
        { 'secondary_language_ids.1': ['The selected secondary_language_ids.1 is invalid.'] },
      ],
      [
        'too many secondary languages',
        { secondary_language_ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] },
        { secondary_language_ids: ['The secondary language ids may not have more than 10 items.'] },
      ],
      [
        'secondary language item type',
        { secondary_language_ids: [1, 'x'] },
        { 'secondary_language_ids.1': ['The secondary_language_ids.1 must be an integer.'] },
      ],
      [
        'secondary languages not a list',
        { secondary_language_ids: 3 },
        { secondary_language_ids: ['The secondary language ids must be an array.'] },
      ],
      ['llm of the wrong kind', { llm_model_id: 3 }, { llm_model_id: ['The selected llm model id is invalid.'] }],
      [
        'multimodal model of the wrong kind',
        { mode: 'multimodal', multimodal_model_id: 2 },
        { multimodal_model_id: ['The selected multimodal model id is invalid.'] },
      ],
      [
        'fallback of the wrong kind',
        { chat_llm_fallback_id: 3 },
        { chat_llm_fallback_id: ['The selected chat llm fallback id is invalid.'] },
      ],
      [
        'synthesizer of the wrong kind',
        { synthesizer_provider_id: 3 },
        { synthesizer_provider_id: ['The selected synthesizer provider id is invalid.'] },
      ],
      [
        'transcriber of the wrong kind',
        { transcriber_provider_id: 1 },
        { transcriber_provider_id: ['The selected transcriber provider id is invalid.'] },
      ],
      [
        'interruptions in multimodal',
        { mode: 'multimodal', allow_interruptions: false },
        { allow_interruptions: ['Interruptions cannot be disabled in multimodal or dualplex mode.'] },
      ],
      [
        'interruptions in dualplex',
        { mode: 'dualplex', allow_interruptions: 'false' },
        { allow_interruptions: ['Interruptions cannot be disabled in multimodal or dualplex mode.'] },
      ],
      [
        'prompt knowledge base in multimodal',
        { mode: 'multimodal', knowledgebase_mode: 'prompt' },
        { knowledgebase_mode: ['Only function_call mode is available for multimodal assistants.'] },
      ],
      ['boolean', { record: 'yes' }, { record: ['The record field must be true or false.'] }],
      [
        'voice stability',
        { voice_stability: 1.5 },
        { voice_stability: ['The voice stability must be between 0 and 1.'] },
      ],
      [
        'turn detection',
        { turn_detection_threshold: -0.1 },
        { turn_detection_threshold: ['The turn detection threshold must be between 0 and 1.'] },
      ],
      ['max duration', { max_duration: 19 }, { max_duration: ['The max duration must be between 20 and 1200.'] }],
      ['max duration integer', { max_duration: 30.5 }, { max_duration: ['The max duration must be an integer.'] }],
      [
        'max silence',
        { max_silence_duration: 361 },
        { max_silence_duration: ['The max silence duration must be between 1 and 360.'] },
      ],
      [
        'initial silence',
        { max_initial_silence_duration: 0 },
        { max_initial_silence_duration: ['The max initial silence duration must be between 1 and 120.'] },
      ],
      ['ringing time', { ringing_time: 61 }, { ringing_time: ['The ringing time must be between 1 and 60.'] }],
      [
        'reengagement interval',
        { reengagement_interval: 6 },
        { reengagement_interval: ['The reengagement interval must be between 7 and 600.'] },
      ],
      [
        'endpoint sensitivity',
        { endpoint_sensitivity: 5.1 },
        { endpoint_sensitivity: ['The endpoint sensitivity must be between 0 and 5.'] },
      ],
      [
        'interrupt words',
        { min_interrupt_words: 11 },
        { min_interrupt_words: ['The min interrupt words must be between 0 and 10.'] },
      ],
      [
        'ambient volume',
        { ambient_sound_volume: 2 },
        { ambient_sound_volume: ['The ambient sound volume must be between 0 and 1.'] },
      ],
      [
        'inactivity timeout',
        { conversation_inactivity_timeout: 1441 },
        { conversation_inactivity_timeout: ['The conversation inactivity timeout must be between 1 and 1440.'] },
      ],
      [
        'tool type',
        { tools: [{ type: 'end_call' }, { type: 'hang_up' }] },
        { 'tools.1.type': ['The selected tools.1.type is invalid.'] },
      ],
      [
        'tool without type',
        { tools: [{ description: 'x' }] },
        { 'tools.0.type': ['The tools.0.type field is required.'] },
      ],
      ['tool not an object', { tools: ['end_call'] }, { 'tools.0': ['The tools.0 must be an object.'] }],
      [
        'tool data not an object',
        { tools: [{ type: 'end_call', data: 'x' }] },
        { 'tools.0.data': ['The tools.0.data must be an object.'] },
      ],
      [
        'transfer without number',
        { tools: [{ type: 'call_transfer' }] },
        { 'tools.0.phone_number': ['The tools.0.phone_number field is required.'] },
      ],
      [
        'transfer number not E.164',
        { tools: [{ type: 'call_transfer', phone_number: '0415555' }] },
        { 'tools.0.phone_number': ['The tools.0.phone_number must be a valid E.164 phone number.'] },
      ],
      [
        'keypad timeout',
        { tools: [{ type: 'collect_keypad', data: { timeout: 31 } }] },
        { 'tools.0.timeout': ['The tools.0.timeout must be between 1 and 30.'] },
      ],
      [
        'keypad stop key',
        { tools: [{ type: 'collect_keypad', stop_key: '0' }] },
        { 'tools.0.stop_key': ['The selected tools.0.stop_key is invalid.'] },
      ],
      [
        'tool description',
        { tools: [{ type: 'dtmf_input', description: 'x'.repeat(501) }] },
        { 'tools.0.description': ['The tools.0.description may not be greater than 500 characters.'] },
      ],
      [
        'calendar without event type',
        { tools: [{ type: 'calendar_integration' }] },
        { 'tools.0.event_type_id': ['The tools.0.event_type_id field is required.'] },
      ],
      [
        'missing event type',
        { tools: [{ type: 'calendar_integration', event_type_id: 999999 }] },
        { 'tools.0.event_type_id': ['The selected event type is invalid.'] },
      ],
      [
        'missing transfer target',
        { tools: [{ type: 'assistant_transfer', assistant_id: 999999 }] },
        { 'tools.0.assistant_id': ['The selected assistant is invalid.'] },
      ],
      [
        'too many tools',
        { tools: Array.from({ length: 21 }, () => ({ type: 'end_call' })) },
        { tools: ['The tools may not have more than 20 items.'] },
      ],
      [
        'post-call name',
        { post_call_schema: [{ name: '1st', type: 'string' }] },
        { 'post_call_schema.0.name': ['The post_call_schema.0.name format is invalid.'] },
      ],
      [
        'post-call type',
        { post_call_schema: [{ name: 'a', type: 'date' }] },
        { 'post_call_schema.0.type': ['The selected post_call_schema.0.type is invalid.'] },
      ],
      [
        'post-call missing',
        { post_call_schema: [{}] },
        {
          'post_call_schema.0.name': ['The post_call_schema.0.name field is required.'],
          'post_call_schema.0.type': ['The post_call_schema.0.type field is required.'],
        },
      ],
      [
        'post-call duplicates',
        {
          post_call_schema: [
            { name: 'a', type: 'int' },
            { name: 'a', type: 'string' },
          ],
        },
        { 'post_call_schema.1.name': ['The post_call_schema.1.name has already been taken.'] },
      ],
      [
        'post-call description',
        { post_call_schema: [{ name: 'a', type: 'int', description: 'x'.repeat(256) }] },
        {
          'post_call_schema.0.description': [
            'The post_call_schema.0.description may not be greater than 255 characters.',
          ],
        },
      ],
      ['filler config type', { filler_config: ['Great'] }, { filler_config: ['The filler config must be an object.'] }],
      [
        'filler phrase length',
        { filler_config: { neutral: ['x'.repeat(101)] } },
        { 'filler_config.neutral.0': ['The filler_config.neutral.0 may not be greater than 100 characters.'] },
      ],
      [
        'filler count',
        { filler_config: { positive: Array.from({ length: 21 }, () => 'ok') } },
        { 'filler_config.positive': ['The filler_config.positive may not have more than 20 items.'] },
      ],
      ['variables type', { variables: 'x' }, { variables: ['The variables must be an object.'] }],
      [
        'variable name',
        { variables: { 'bad-key': 'x' } },
        { 'variables.bad-key': ['The variables.bad-key format is invalid.'] },
      ],
      [
        'variable value',
        { variables: { note: { nested: true } } },
        { 'variables.note': ['The variables.note must be a string.'] },
      ],
    ])('422: %s', async (_, body, errors) => {
      expectInvalid(
        await t.http
          .post('/api/user/assistant')
          .set(a.auth)
          .send({ name: 'X', ...body }),
        errors,
      );
    });

    it('answers 422 for a body that is not an object', async () => {
      expectInvalid(
        await t.http
          .post('/api/user/assistant')
          .set(a.auth)
          .send([{ name: 'x' }]),
        { body: ['The request body must be a JSON object.'] },
      );
    });

    it('treats "" as absent for defaults and null for nullable fields', async () => {
      const id = await create(a, { name: 'Blank', timezone: '', mode: '', webhook_url: '', reengagement_prompt: '  ' });
      expect(await get(a, id)).toEqual(
        expect.objectContaining({ timezone: 'UTC', mode: 'pipeline', webhook_url: null, reengagement_prompt: null }),
      );
    });

    it('forces fillers off and the transcriber away outside the pipeline, defaults follow the mode', async () => {
      const id = await create(a, {
        name: 'Realtime',
        mode: 'multimodal',
        fillers: true,
        transcriber_provider_id: 3,
        knowledgebase_id: null,
      });
      expect(await get(a, id)).toEqual(
        expect.objectContaining({
          mode: 'multimodal',
          fillers: false,
          transcriber_provider_id: null,
          voice_id: 5,
          multimodal_model_id: 3,
        }),
      );
      const dualplex = await create(a, { name: 'Dual', mode: 'dualplex', language_id: 3 });
      expect(await get(a, dualplex)).toEqual(
        expect.objectContaining({ voice_id: 4, multimodal_model_id: 3, llm_model_id: 1 }),
      );
    });

    it('refuses two attached tools with one name', async () => {
      const [x, y] = [await insertTool(a, 'lookup'), await insertTool(a, 'lookup')];
      expectInvalid(
        await t.http
          .post('/api/user/assistant')
          .set(a.auth)
          .send({ name: 'X', tool_ids: [x, y] }),
        { tool_ids: ['Two attached tools have the same name: lookup.'] },
      );
    });

    it('refuses an inbound number another inbound assistant answers on, allows it for outbound', async () => {
      const phone = await insertPhone(a, '+14155550102');
      await create(a, { name: 'In 1', type: 'inbound', phone_number_id: phone });
      expectInvalid(
        await t.http
          .post('/api/user/assistant')
          .set(a.auth)
          .send({ name: 'In 2', type: 'inbound', phone_number_id: phone }),
        {
          phone_number_id: ['The phone number is already assigned to another inbound assistant.'],
        },
      );
      expect(
        (await t.http.post('/api/user/assistant').set(a.auth).send({ name: 'Out', phone_number_id: phone })).status,
      ).toBe(201);
    });

    describe('references to another account behave exactly like missing ones', () => {
      const cases: Array<[string, (owner: TestUser) => Promise<Record<string, unknown>>, Record<string, string[]>]> = [
        [
          'folder_id',
          async (o) => ({ folder_id: await group(o, 'folder', `f${Math.random()}`) }),
          { folder_id: ['The selected folder id is invalid.'] },
        ],
        [
          'label_ids',
          async (o) => ({ label_ids: [await group(o, 'label', `l${Math.random()}`)] }),
          { 'label_ids.0': ['The selected label_ids.0 is invalid.'] },
        ],
        [
          'tool_ids',
          async (o) => ({ tool_ids: [await insertTool(o, 'remote')] }),
          { 'tool_ids.0': ['The selected tool_ids.0 is invalid.'] },
        ],
        [
          'phone_number_id',
          async (o) => ({ phone_number_id: await insertPhone(o, '+14155550103') }),
          { phone_number_id: ['The selected phone number id is invalid.'] },
        ],
        [
          'knowledgebase_id',
          async (o) => ({ knowledgebase_id: await knowledgeBase(o) }),
          { knowledgebase_id: ['The selected knowledgebase id is invalid.'] },
        ],
        [
          'tools.{i}.event_type_id',
          async (o) => ({ tools: [{ type: 'calendar_integration', event_type_id: await eventType(o) }] }),
          { 'tools.0.event_type_id': ['The selected event type is invalid.'] },
        ],
        [
          'tools.{i}.assistant_id',
          async (o) => ({ tools: [{ type: 'assistant_transfer', assistant_id: await create(o, { name: 'theirs' }) }] }),
          { 'tools.0.assistant_id': ['The selected assistant is invalid.'] },
        ],
      ];
      it.each(cases)('%s', async (_, referenceOf, errors) => {
        const foreign = await referenceOf(b);
        const missing = JSON.parse(JSON.stringify(foreign).replace(/\d+/g, '999999'));
        const onCreate = await t.http
          .post('/api/user/assistant')
          .set(a.auth)
          .send({ name: 'X', ...foreign });
        const onCreateMissing = await t.http
          .post('/api/user/assistant')
          .set(a.auth)
          .send({ name: 'X', ...missing });
        const mine = await create(a, { name: 'Mine' });
        const onUpdate = await t.http.put(`/api/user/assistant/${mine}`).set(a.auth).send(foreign);
        for (const res of [onCreate, onCreateMissing, onUpdate]) expectInvalid(res, errors);
      });
    });
  });

  describe('PUT /api/user/assistant/{id}', () => {
    it('changes only the sent fields and answers the summary', async () => {
      const id = await create(a, { name: 'Before', system_prompt: 'Keep me', variables: { a: 'b' } });
      const before = await get(a, id);
      const res = await t.http
        .put(`/api/user/assistant/${id}`)
        .set(a.auth)
        .send({ name: 'Renamed', speech_speed: 0.8 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: 'Assistant updated successfully',
        data: { id, name: 'Renamed', status: 'inactive', type: 'outbound', mode: 'pipeline' },
      });
      expect(await get(a, id)).toEqual({ ...before, name: 'Renamed', speech_speed: 0.8, updated_at: isoDate });
    });

    it('clears nullable fields with null and lists with [], replaces tools', async () => {
      const folder = await group(a, 'folder', 'Clearable');
      const tool = await insertTool(a, 'clear_me');
      const id = await create(a, {
        name: 'Full',
        folder_id: folder,
        tool_ids: [tool],
        secondary_language_ids: [2],
        reengagement_prompt: 'x',
        tools: [{ type: 'end_call' }, { type: 'dtmf_input' }],
        post_call_schema: [{ name: 'a', type: 'int' }],
        filler_config: { positive: ['ok'] },
        variables: { a: 'b' },
      });
      const res = await t.http
        .put(`/api/user/assistant/${id}`)
        .set(a.auth)
        .send({
          folder_id: null,
          tool_ids: [],
          secondary_language_ids: [],
          reengagement_prompt: null,
          tools: [{ type: 'collect_keypad' }],
          post_call_schema: [],
          filler_config: null,
          variables: {},
          system_prompt: null,
        });
      expect(res.status).toBe(200);
      expect(await get(a, id)).toEqual(
        expect.objectContaining({
          folder_id: null,
          tool_ids: [],
          secondary_language_ids: [],
          reengagement_prompt: null,
          tools: [{ type: 'collect_keypad', data: { description: null, timeout: 5, stop_key: '#' } }],
          post_call_schema: [],
          filler_config: null,
          variables: {},
          system_prompt: '',
        }),
      );
    });

    it('refuses "" and null on a field that cannot be empty', async () => {
      const id = await create(a, { name: 'Strict' });
      expectInvalid(await t.http.put(`/api/user/assistant/${id}`).set(a.auth).send({ name: '', tool_ids: null }), {
        name: ['The name field must have a value.'],
        tool_ids: ['The tool ids field must have a value.'],
      });
    });

    it('resets mode-specific settings when the mode changes, keeps what the same request sends', async () => {
      const kb = await knowledgeBase(a);
      const id = await create(a, {
        name: 'Switch',
        voice_id: 2,
        fillers: true,
        synthesizer_provider_id: 1,
        transcriber_provider_id: 3,
        llm_model_id: 2,
        knowledgebase_id: kb,
        knowledgebase_mode: 'prompt',
        allow_interruptions: false,
      });
      expect((await t.http.put(`/api/user/assistant/${id}`).set(a.auth).send({ mode: 'multimodal' })).status).toBe(200);
      expect(await get(a, id)).toEqual(
        expect.objectContaining({
          mode: 'multimodal',
          voice_id: 5,
          llm_model_id: 1,
          multimodal_model_id: 3,
          synthesizer_provider_id: null,
          transcriber_provider_id: null,
          fillers: false,
          allow_interruptions: true,
          knowledgebase_mode: 'function_call',
        }),
      );
      expect(
        (
          await t.http
            .put(`/api/user/assistant/${id}`)
            .set(a.auth)
            .send({ mode: 'pipeline', voice_id: 3, synthesizer_provider_id: 2 })
        ).status,
      ).toBe(200);
      expect(await get(a, id)).toEqual(
        expect.objectContaining({
          mode: 'pipeline',
          voice_id: 3,
          multimodal_model_id: null,
          synthesizer_provider_id: 2,
        }),
      );
      expectInvalid(await t.http.put(`/api/user/assistant/${id}`).set(a.auth).send({ mode: 'dualplex', voice_id: 5 }), {
        voice_id: ['The selected voice is not compatible with the chosen engine type.'],
      });
    });

    it('evaluates cross-field rules on the merged state', async () => {
      const id = await create(a, { name: 'Merged', mode: 'multimodal' });
      expectInvalid(await t.http.put(`/api/user/assistant/${id}`).set(a.auth).send({ allow_interruptions: false }), {
        allow_interruptions: ['Interruptions cannot be disabled in multimodal or dualplex mode.'],
      });
      expectInvalid(await t.http.put(`/api/user/assistant/${id}`).set(a.auth).send({ is_webhook_active: true }), {
        webhook_url: ['The webhook url field is required when is webhook active is true.'],
      });
      expectInvalid(await t.http.put(`/api/user/assistant/${id}`).set(a.auth).send({ speech_speed: 2 }), {
        speech_speed: ['Speech speed must be between 0.7 and 1.2.'],
      });
    });

    it('refuses an inbound switch onto a number another inbound assistant answers on', async () => {
      const phone = await insertPhone(a, '+14155550104');
      await create(a, { name: 'Owner', type: 'inbound', phone_number_id: phone });
      const other = await create(a, { name: 'Other', phone_number_id: phone });
      expectInvalid(await t.http.put(`/api/user/assistant/${other}`).set(a.auth).send({ type: 'inbound' }), {
        phone_number_id: ['The phone number is already assigned to another inbound assistant.'],
      });
    });

    it('lets an inbound assistant keep its own number and refuses a transfer to itself', async () => {
      const phone = await insertPhone(a, '+14155550105');
      const id = await create(a, { name: 'Self', type: 'inbound', phone_number_id: phone });
      expect(
        (await t.http.put(`/api/user/assistant/${id}`).set(a.auth).send({ phone_number_id: phone, name: 'Self 2' }))
          .status,
      ).toBe(200);
      expectInvalid(
        await t.http
          .put(`/api/user/assistant/${id}`)
          .set(a.auth)
          .send({ tools: [{ type: 'assistant_transfer', assistant_id: id }] }),
        {
          'tools.0.assistant_id': ['The selected assistant is invalid.'],
        },
      );
    });

    it('disabling the webhook through an update clears the URL and raises one event', async () => {
      const id = await create(a, {
        name: 'Hooked',
        webhook_url: 'https://hooks.example.com/a',
        is_webhook_active: true,
        conversation_ended_webhook_url: 'https://hooks.example.com/c',
      });
      expect(
        (await t.http.put(`/api/user/assistant/${id}`).set(a.auth).send({ is_webhook_active: false })).status,
      ).toBe(200);
      expect(await get(a, id)).toEqual(expect.objectContaining({ is_webhook_active: false, webhook_url: null }));
      expect(
        (await t.http.put(`/api/user/assistant/${id}`).set(a.auth).send({ is_webhook_active: false })).status,
      ).toBe(200);
      expect(await events('assistant.webhook_disabled', id)).toEqual([
        { payload: { assistant_id: id, user_id: a.id } },
      ]);
      expect(
        (await t.http.put(`/api/user/assistant/${id}`).set(a.auth).send({ conversation_ended_webhook_url: null }))
          .status,
      ).toBe(200);
      expect(await events('assistant.conversation_ended_webhook_cleared', id)).toEqual([
        { payload: { assistant_id: id, user_id: a.id } },
      ]);
    });

    it('webhook_url null deactivates the webhook', async () => {
      const id = await create(a, {
        name: 'Hooked 2',
        webhook_url: 'https://hooks.example.com/a',
        is_webhook_active: true,
      });
      expect((await t.http.put(`/api/user/assistant/${id}`).set(a.auth).send({ webhook_url: null })).status).toBe(200);
      expect(await get(a, id)).toEqual(expect.objectContaining({ is_webhook_active: false, webhook_url: null }));
      expect(await events('assistant.webhook_disabled', id)).toHaveLength(1);
    });

    it.each([
      ['a missing id', () => '999999'],
      ["another account's id", () => String(bAssistant)],
      ['a non-numeric id', () => 'abc'],
      ['a zero id', () => '0'],
    ])('answers 404 for %s, before looking at the body', async (_, idOf) => {
      const res = await t.http.put(`/api/user/assistant/${idOf()}`).set(a.auth).send({ speech_speed: 9 });
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: NOT_FOUND });
    });

    let bAssistant = 0;
    beforeAll(async () => {
      bAssistant = await create(b, { name: 'B only', system_prompt: 'B' });
    });

    it("leaves another account's assistant untouched", async () => {
      await t.http.put(`/api/user/assistant/${bAssistant}`).set(a.auth).send({ name: 'Hijacked' });
      expect((await get(b, bAssistant)).name).toBe('B only');
    });
  });

  describe('PATCH /api/user/assistants/{id} (alias of PUT /api/user/assistant/{id})', () => {
    it('changes only the sent fields and answers the summary', async () => {
      const id = await create(a, { name: 'Patched', system_prompt: 'Keep me', variables: { a: 'b' } });
      const before = await get(a, id);
      const res = await t.http
        .patch(`/api/user/assistants/${id}`)
        .set(a.auth)
        .send({ name: 'Renamed', speech_speed: 0.8 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: 'Assistant updated successfully',
        data: { id, name: 'Renamed', status: 'inactive', type: 'outbound', mode: 'pipeline' },
      });
      expect(res.headers['x-ratelimit-limit']).toBe('600');
      expect(await get(a, id)).toEqual({ ...before, name: 'Renamed', speech_speed: 0.8, updated_at: isoDate });
    });

    it("answers 422 with the update's rules and messages", async () => {
      const id = await create(a, { name: 'Strict patch' });
      expectInvalid(await t.http.patch(`/api/user/assistants/${id}`).set(a.auth).send({ name: '', speech_speed: 2 }), {
        name: ['The name field must have a value.'],
        speech_speed: ['Speech speed must be between 0.7 and 1.2.'],
      });
      expect((await get(a, id)).name).toBe('Strict patch');
    });

    it.each([
      ['a missing id', () => '999999'],
      ["another account's id", () => String(theirs)],
    ])('answers 404 for %s, before looking at the body', async (_, idOf) => {
      const res = await t.http
        .patch(`/api/user/assistants/${idOf()}`)
        .set(a.auth)
        .send({ name: 'Hijacked', speech_speed: 9 });
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: NOT_FOUND });
    });

    it('takes a word in the id place for an unknown path of the plural (which holds literal routes), not an id: 404 Not found.', async () => {
      const res = await t.http
        .patch('/api/user/assistants/abc')
        .set(a.auth)
        .send({ name: 'Hijacked', speech_speed: 9 });
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { message: 'Not found.' } });
      const canonical = await t.http
        .put('/api/user/assistant/abc')
        .set(a.auth)
        .send({ name: 'Hijacked', speech_speed: 9 });
      expect({ status: canonical.status, body: canonical.body }).toEqual({ status: 404, body: NOT_FOUND });
    });

    let theirs = 0;
    beforeAll(async () => {
      theirs = await create(b, { name: 'B patch target' });
    });

    it("needs a token like every user route, and leaves another account's assistant untouched", async () => {
      const res = await t.http.patch(`/api/user/assistants/${theirs}`).send({ name: 'Anonymous' });
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { error: 'Unauthorized' } });
      expect((await get(b, theirs)).name).toBe('B patch target');
    });
  });

  describe('GET /api/user/assistant/{id}, /api/user/assistants/get and /api/user/assistants', () => {
    let c: TestUser;
    const ids: Record<string, number> = {};
    const withIds = (query: string) => query.replace('FOLDER', String(ids.folder)).replace('LABEL', String(ids.label));
    beforeAll(async () => {
      c = await t.createUser();
      const folder = await group(c, 'folder', 'Filtered');
      const label = await group(c, 'label', 'Filtered');
      ids.out1 = await create(c, { name: 'Out 1', folder_id: folder, label_ids: [label] });
      ids.in1 = await create(c, { name: 'In 1', type: 'inbound' });
      ids.out2 = await create(c, { name: 'Out 2', system_prompt: 'Ready' });
      await t.http.post(`/api/user/assistant/${ids.out2}/activate`).set(c.auth);
      ids.folder = folder;
      ids.label = label;
    });

    it('/assistants/get lists newest first in a page envelope of full records', async () => {
      const res = await t.http.get('/api/user/assistants/get').set(c.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [await get(c, ids.out2), await get(c, ids.in1), await get(c, ids.out1)],
        current_page: 1,
        per_page: 15,
        total: 3,
        last_page: 1,
      });
    });

    it.each([
      ['type=inbound', ['in1']],
      ['type=outbound', ['out2', 'out1']],
      ['status=active', ['out2']],
      ['status=inactive', ['in1', 'out1']],
      ['folder_id=FOLDER', ['out1']],
      ['label_id=LABEL', ['out1']],
      ['folder_id=999999', []],
      ['per_page=1&page=2', ['in1']],
      ['per_page=2&page=3', []],
    ])('/assistants/get filters %s', async (query, expected) => {
      const res = await t.http.get(`/api/user/assistants/get?${withIds(query)}`).set(c.auth);
      expect(res.status).toBe(200);
      expect(res.body.data.map((x: { id: number }) => x.id)).toEqual(expected.map((k) => ids[k]));
    });

    it('/assistants/get reports the real total past the last page', async () => {
      const res = await t.http.get('/api/user/assistants/get?per_page=2&page=3').set(c.auth);
      expect(res.body).toEqual({ data: [], current_page: 3, per_page: 2, total: 3, last_page: 2 });
    });

    it.each<[string, Record<string, string[]>]>([
      ['type=any', { type: ['The selected type is invalid.'] }],
      ['status=on', { status: ['The selected status is invalid.'] }],
      ['folder_id=x', { folder_id: ['The folder id must be an integer.'] }],
      ['per_page=101', { per_page: ['The per page must be between 1 and 100.'] }],
      ['page=0', { page: ['The page must be at least 1.'] }],
      ['page=0&type=any', { page: ['The page must be at least 1.'], type: ['The selected type is invalid.'] }],
    ])('/assistants/get: 422 on %s', async (query, errors) => {
      const res = await t.http.get(`/api/user/assistants/get?${query}`).set(c.auth);
      expectInvalid(res, errors);
      expect(Object.keys(res.body.errors)).toEqual(Object.keys(errors));
    });

    it("/assistants/get never lists another account's assistants", async () => {
      const res = await t.http.get('/api/user/assistants/get?per_page=100').set(b.auth);
      expect(res.body.data.every((x: { user_id: number }) => x.user_id === b.id)).toBe(true);
    });

    it('/assistants is a bare array of every full record, oldest first, whatever paging is asked for', async () => {
      const all = [await get(c, ids.out1), await get(c, ids.in1), await get(c, ids.out2)];
      for (const query of ['', '?per_page=1&page=2', '?page=0']) {
        const res = await t.http.get(`/api/user/assistants${query}`).set(c.auth);
        expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: all });
        expect(res.headers['x-ratelimit-limit']).toBe('600');
      }
    });

    it.each([
      ['type=inbound', ['in1']],
      ['type=outbound', ['out1', 'out2']],
      ['status=active', ['out2']],
      ['status=inactive', ['out1', 'in1']],
      ['folder_id=FOLDER', ['out1']],
      ['label_id=LABEL', ['out1']],
      ['folder_id=999999', []],
      ['type=outbound&status=inactive', ['out1']],
    ])('/assistants filters %s', async (query, expected) => {
      const res = await t.http.get(`/api/user/assistants?${withIds(query)}`).set(c.auth);
      expect(res.status).toBe(200);
      expect(res.body.map((x: { id: number }) => x.id)).toEqual(expected.map((k) => ids[k]));
    });

    it.each<[string, Record<string, string[]>]>([
      ['type=any', { type: ['The selected type is invalid.'] }],
      ['status=on', { status: ['The selected status is invalid.'] }],
      [
        'folder_id=x&label_id=0',
        { folder_id: ['The folder id must be an integer.'], label_id: ['The label id must be an integer.'] },
      ],
    ])('/assistants: 422 on %s', async (query, errors) => {
      expectInvalid(await t.http.get(`/api/user/assistants?${query}`).set(c.auth), errors);
    });

    it('/assistants is [] for an account without assistants, and needs a token', async () => {
      const empty = await t.createUser();
      const res = await t.http.get('/api/user/assistants').set(empty.auth);
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: [] });
      const anonymous = await t.http.get('/api/user/assistants');
      expect({ status: anonymous.status, body: anonymous.body }).toEqual({
        status: 401,
        body: { error: 'Unauthorized' },
      });
    });

    it("/assistants never lists another account's assistants", async () => {
      const res = await t.http.get('/api/user/assistants').set(b.auth);
      expect(res.body.length).toBeGreaterThan(0);
      expect(res.body.every((x: { user_id: number }) => x.user_id === b.id)).toBe(true);
    });

    it.each([
      ['missing', '999999'],
      ['non-numeric', 'abc'],
    ])('GET 404 for a %s id', async (_, id) => {
      const res = await t.http.get(`/api/user/assistant/${id}`).set(a.auth);
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: NOT_FOUND });
    });

    it("GET 404 for another account's id", async () => {
      const res = await t.http.get(`/api/user/assistant/${ids.out1}`).set(a.auth);
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: NOT_FOUND });
    });
  });

  describe('GET /api/user/assistants/outbound', () => {
    it('is a bare array of exactly the outbound-list fields, outbound only, id ascending', async () => {
      const d = await t.createUser();
      expect((await t.http.get('/api/user/assistants/outbound').set(d.auth)).body).toEqual([]);
      const first = await create(d, {
        name: 'First',
        timezone: 'Europe/Berlin',
        initial_message: 'Hello!',
        system_prompt: 'Be brief.',
        variables: { company: 'Acme' },
      });
      await create(d, { name: 'Inbound', type: 'inbound' });
      const second = await create(d, {
        name: 'Second',
        mode: 'multimodal',
        webhook_url: 'https://hooks.example.com/x',
        is_webhook_active: true,
      });
      await create(b, { name: 'Not yours' });
      const res = await t.http.get('/api/user/assistants/outbound').set(d.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        {
          id: first,
          user_id: d.id,
          name: 'First',
          type: 'outbound',
          mode: 'pipeline',
          status: 'inactive',
          voice_id: 1,
          language_id: 1,
          timezone: 'Europe/Berlin',
          initial_message: 'Hello!',
          system_prompt: 'Be brief.',
          variables: { company: 'Acme' },
          webhook_url: null,
          is_webhook_active: false,
          created_at: isoDate,
          updated_at: isoDate,
        },
        {
          id: second,
          user_id: d.id,
          name: 'Second',
          type: 'outbound',
          mode: 'multimodal',
          status: 'inactive',
          voice_id: 5,
          language_id: 1,
          timezone: 'UTC',
          initial_message: '',
          system_prompt: '',
          variables: {},
          webhook_url: 'https://hooks.example.com/x',
          is_webhook_active: true,
          created_at: isoDate,
          updated_at: isoDate,
        },
      ]);
    });
  });

  describe('DELETE /api/user/assistant/{id}', () => {
    it('deletes, frees the number, raises assistant.deleted, and is then missing', async () => {
      const phone = await insertPhone(a, '+14155550106');
      const id = await create(a, { name: 'Doomed', type: 'inbound', phone_number_id: phone });
      const res = await t.http.delete(`/api/user/assistant/${id}`).set(a.auth);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 200,
        body: { message: 'Assistant deleted successfully' },
      });
      expect((await t.http.get(`/api/user/assistant/${id}`).set(a.auth)).status).toBe(404);
      const again = await t.http.delete(`/api/user/assistant/${id}`).set(a.auth);
      expect({ status: again.status, body: again.body }).toEqual({ status: 404, body: NOT_FOUND });
      expect(await events('assistant.deleted', id)).toEqual([{ payload: { assistant_id: id, user_id: a.id } }]);
      await create(a, { name: 'Successor', type: 'inbound', phone_number_id: phone });
    });

    it.each([
      ['missing', () => '999999'],
      ['non-numeric', () => 'abc'],
      ["another account's", () => String(foreign)],
    ])('404 for a %s id', async (_, idOf) => {
      const res = await t.http.delete(`/api/user/assistant/${idOf()}`).set(a.auth);
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: NOT_FOUND });
    });

    let foreign = 0;
    beforeAll(async () => {
      foreign = await create(b, { name: 'Survivor' });
    });
    it("left another account's assistant in place", async () => {
      expect((await get(b, foreign)).name).toBe('Survivor');
      expect(await events('assistant.deleted', foreign)).toEqual([]);
    });
  });

  describe('activate / deactivate', () => {
    it('requires a system prompt, then activates idempotently and deactivates', async () => {
      const id = await create(a, { name: 'Agent' });
      expectInvalid(await t.http.post(`/api/user/assistant/${id}/activate`).set(a.auth), {
        system_prompt: ['The system prompt field is required.'],
      });
      await t.http.put(`/api/user/assistant/${id}`).set(a.auth).send({ system_prompt: 'Help.' });
      for (let i = 0; i < 2; i++) {
        const res = await t.http.post(`/api/user/assistant/${id}/activate`).set(a.auth);
        expect({ status: res.status, body: res.body }).toEqual({
          status: 200,
          body: {
            message: 'Assistant activated successfully',
            data: { id, name: 'Agent', status: 'active', type: 'outbound', mode: 'pipeline' },
          },
        });
      }
      for (let i = 0; i < 2; i++) {
        const res = await t.http.post(`/api/user/assistant/${id}/deactivate`).set(a.auth).send({});
        expect({ status: res.status, body: res.body }).toEqual({
          status: 200,
          body: {
            message: 'Assistant deactivated successfully',
            data: { id, name: 'Agent', status: 'inactive', type: 'outbound', mode: 'pipeline' },
          },
        });
      }
    });

    it('requires a number for inbound assistants', async () => {
      const id = await create(a, { name: 'Reception', type: 'inbound', system_prompt: 'Answer.' });
      expectInvalid(await t.http.post(`/api/user/assistant/${id}/activate`).set(a.auth), {
        phone_number_id: ['The phone number id field is required.'],
      });
    });

    it('refuses while the assistant is blocked for compliance review, and status stays', async () => {
      const id = await create(a, { name: 'Blocked', system_prompt: 'x' });
      await t.http.put(`/api/admin/assistants/${id}/compliance`).set(t.admin).send({ blocked: true, reason: 'Review' });
      const res = await t.http.post(`/api/user/assistant/${id}/activate`).set(a.auth);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 422,
        body: { message: 'The assistant is blocked for compliance review.' },
      });
      expect(await get(a, id)).toEqual(expect.objectContaining({ status: 'inactive', compliance_blocked: true }));
    });

    it.each(['activate', 'deactivate'])('%s: 404 for missing, foreign and malformed ids', async (action) => {
      const foreign = await create(b, { name: 'Theirs', system_prompt: 'x' });
      for (const id of ['999999', String(foreign), 'x1']) {
        const res = await t.http.post(`/api/user/assistant/${id}/${action}`).set(a.auth);
        expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: NOT_FOUND });
      }
      expect((await get(b, foreign)).status).toBe('inactive');
    });
  });

  it('the OpenAPI document lists both lists and the PATCH alias', async () => {
    const paths = (await t.http.get('/api/openapi.json')).body.paths;
    expect(paths['/api/user/assistants'].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      'type',
      'status',
      'folder_id',
      'label_id',
    ]);
    expect(paths['/api/user/assistants/get'].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      'page',
      'per_page',
      'type',
      'status',
      'folder_id',
      'label_id',
    ]);
    expect(paths['/api/user/assistants/{id}'].patch.requestBody).toEqual(
      paths['/api/user/assistant/{id}'].put.requestBody,
    );
  });

  describe('POST /api/user/assistants/disable-webhook and /enable-webhook', () => {
    it('disables: webhook off, URL cleared, one event, idempotent', async () => {
      const id = await create(a, {
        name: 'Hooked',
        webhook_url: 'https://hooks.example.com/a',
        is_webhook_active: true,
      });
      for (let i = 0; i < 2; i++) {
        const res = await t.http
          .post('/api/user/assistants/disable-webhook')
          .set(a.auth)
          .send({ assistant_id: String(id) });
        expect({ status: res.status, body: res.body }).toEqual({
          status: 200,
          body: { message: 'Webhook disabled successfully', data: [] },
        });
      }
      expect(await get(a, id)).toEqual(expect.objectContaining({ is_webhook_active: false, webhook_url: null }));
      expect(await events('assistant.webhook_disabled', id)).toEqual([
        { payload: { assistant_id: id, user_id: a.id } },
      ]);
    });

    it('enables: URL stored, webhook on', async () => {
      const id = await create(a, { name: 'Quiet' });
      const res = await t.http
        .post('/api/user/assistants/enable-webhook')
        .set(a.auth)
        .send({ assistant_id: id, webhook_url: ' https://hooks.example.com/new ' });
      expect({ status: res.status, body: res.body }).toEqual({
        status: 200,
        body: { message: 'Webhook enabled successfully', data: [] },
      });
      expect(await get(a, id)).toEqual(
        expect.objectContaining({ is_webhook_active: true, webhook_url: 'https://hooks.example.com/new' }),
      );
    });

    it.each<[string, string, Record<string, unknown>, Record<string, string[]>]>([
      ['disable', 'no id', {}, { assistant_id: ['The assistant id field is required.'] }],
      [
        'disable',
        'a non-integer id',
        { assistant_id: 'abc' },
        { assistant_id: ['The assistant id must be an integer.'] },
      ],
      ['enable', 'no URL', { assistant_id: 1 }, { webhook_url: ['The webhook url field is required.'] }],
      [
        'enable',
        'nothing',
        {},
        { assistant_id: ['The assistant id field is required.'], webhook_url: ['The webhook url field is required.'] },
      ],
      [
        'enable',
        'a malformed URL',
        { assistant_id: 1, webhook_url: 'hooks' },
        { webhook_url: ['The webhook url must be a valid URL.'] },
      ],
      [
        'enable',
        'a private URL',
        { assistant_id: 1, webhook_url: 'http://10.1.2.3/x' },
        { webhook_url: ['The webhook url must be a public http or https URL.'] },
      ],
    ])('%s with %s → 422', async (action, _, body, errors) => {
      expectInvalid(await t.http.post(`/api/user/assistants/${action}-webhook`).set(a.auth).send(body), errors);
    });

    it.each(['disable', 'enable'])('%s: a foreign assistant is missing, and stays unchanged', async (action) => {
      const foreign = await create(b, {
        name: 'Theirs',
        webhook_url: 'https://hooks.example.com/b',
        is_webhook_active: true,
      });
      for (const id of [foreign, 999999]) {
        const res = await t.http
          .post(`/api/user/assistants/${action}-webhook`)
          .set(a.auth)
          .send({ assistant_id: id, webhook_url: 'https://hooks.example.com/evil' });
        expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: NOT_FOUND });
      }
      expect(await get(b, foreign)).toEqual(
        expect.objectContaining({ is_webhook_active: true, webhook_url: 'https://hooks.example.com/b' }),
      );
    });
  });
});
