import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/** Reference catalogue, account reference records and the admin compliance, knowledge-base and event-type routes. */

const INVALID = 'The given data was invalid.';
const isoDate = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

const VOICES = [
  {
    id: 1,
    name: 'Ava',
    language_id: 1,
    gender: 'female',
    accent: 'American',
    age: 'young',
    preview_url: null,
    synthesizer_provider_id: 1,
    modes: ['pipeline', 'dualplex'],
  },
  {
    id: 2,
    name: 'Noah',
    language_id: 1,
    gender: 'male',
    accent: 'American',
    age: 'middle_aged',
    preview_url: null,
    synthesizer_provider_id: 1,
    modes: ['pipeline', 'dualplex'],
  },
  {
    id: 3,
    name: 'Lena',
    language_id: 5,
    gender: 'female',
    accent: 'German',
    age: 'young',
    preview_url: null,
    synthesizer_provider_id: 2,
    modes: ['pipeline', 'dualplex'],
  },
  {
    id: 4,
    name: 'Léa',
    language_id: 3,
    gender: 'female',
    accent: 'Parisian French',
    age: 'young',
    preview_url: null,
    synthesizer_provider_id: 2,
    modes: ['pipeline', 'dualplex'],
  },
  {
    id: 5,
    name: 'alloy',
    language_id: null,
    gender: 'neutral',
    accent: null,
    age: null,
    preview_url: null,
    synthesizer_provider_id: null,
    modes: ['multimodal'],
  },
  {
    id: 6,
    name: 'verse',
    language_id: null,
    gender: 'male',
    accent: null,
    age: null,
    preview_url: null,
    synthesizer_provider_id: null,
    modes: ['multimodal'],
  },
];

describe('reference data', () => {
  let t: TestApi;
  let a: TestUser;
  let b: TestUser;
  const expectInvalid = (res: { status: number; body: unknown }, errors: Record<string, string[]>) => {
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { message: INVALID, errors } });
  };

  beforeAll(async () => {
    t = await createTestApi();
    a = await t.createUser();
    b = await t.createUser();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('catalogue', () => {
    it('lists the fourteen languages with stable ids (bare array)', async () => {
      const res = await t.http.get('/api/user/assistants/languages').set(a.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { id: 1, name: 'English', iso_2: 'en' },
        { id: 2, name: 'Romanian', iso_2: 'ro' },
        { id: 3, name: 'French', iso_2: 'fr' },
        { id: 4, name: 'Spanish', iso_2: 'es' },
        { id: 5, name: 'German', iso_2: 'de' },
        { id: 6, name: 'Lithuanian', iso_2: 'lt' },
        { id: 7, name: 'Italian', iso_2: 'it' },
        { id: 8, name: 'Arabic', iso_2: 'ar' },
        { id: 9, name: 'Portuguese', iso_2: 'pt' },
        { id: 10, name: 'Danish', iso_2: 'da' },
        { id: 11, name: 'Dutch', iso_2: 'nl' },
        { id: 12, name: 'Polish', iso_2: 'pl' },
        { id: 13, name: 'Finnish', iso_2: 'fi' },
        { id: 14, name: 'Hebrew', iso_2: 'he' },
      ]);
    });

    it.each([
      ['', [1, 2, 3, 4, 5, 6]],
      ['?mode=pipeline', [1, 2, 3, 4]],
      ['?mode=dualplex', [1, 2, 3, 4]],
      ['?mode=multimodal', [5, 6]],
      ['?language_id=5', [3, 5, 6]],
      ['?language_id=2', [5, 6]],
      ['?mode=pipeline&language_id=1', [1, 2]],
      ['?language_id=%203%20', [4, 5, 6]],
    ])('voices%s', async (query, ids) => {
      const res = await t.http.get(`/api/user/assistants/voices${query}`).set(a.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(VOICES.filter((v) => ids.includes(v.id)));
    });

    it.each<[string, string, Record<string, string[]>]>([
      ['voices', '?mode=realtime', { mode: ['The selected mode is invalid.'] }],
      ['voices', '?language_id=99', { language_id: ['The selected language id is invalid.'] }],
      ['voices', '?language_id=en', { language_id: ['The language id must be an integer.'] }],
      ['models', '?kind=tts', { kind: ['The selected kind is invalid.'] }],
      ['providers', '?kind=llm', { kind: ['The selected kind is invalid.'] }],
      ['models', '?type=realtime', { type: ['The selected type is invalid.'] }],
      ['models', '?type=llm&kind=multimodal', { type: ['The type must match the kind.'] }],
      ['synthesizer-providers', '?language_id=99', { language_id: ['The selected language id is invalid.'] }],
      ['models', '?mode=multimodal', { mode: ['The mode parameter is not supported.'] }],
    ])('%s%s → 422', async (route, query, errors) => {
      expectInvalid(await t.http.get(`/api/user/assistants/${route}${query}`).set(a.auth), errors);
    });

    const LLMS = [
      { id: 1, name: 'gpt-4o-mini', provider: 'openai', kind: 'llm' },
      { id: 2, name: 'gpt-4.1', provider: 'openai', kind: 'llm' },
    ];
    const REALTIME = [{ id: 3, name: 'gpt-4o-realtime', provider: 'openai', kind: 'multimodal' }];
    it.each([
      // Famulor's default: the LLM models of the pipeline mode.
      ['models', '', LLMS],
      ['models', '?kind=multimodal', REALTIME],
      // As the MCP server's get_models sends it.
      ['models', '?type=multimodal', REALTIME],
      ['models', '?type=dualplex', REALTIME],
      ['models', '?type=llm', LLMS],
      ['models', '?type=multimodal&kind=multimodal', REALTIME],
      [
        'providers',
        '?language_id=5',
        [
          { id: 2, name: 'cartesia', kind: 'synthesizer' },
          { id: 3, name: 'deepgram', kind: 'transcriber' },
        ],
      ],
      ['synthesizer-providers', '?language_id=1', [{ id: 1, name: 'elevenlabs', kind: 'synthesizer' }]],
      ['synthesizer-providers', '?language_id=3', [{ id: 2, name: 'cartesia', kind: 'synthesizer' }]],
      ['transcriber-providers', '?language_id=3', [{ id: 3, name: 'deepgram', kind: 'transcriber' }]],
      [
        'providers',
        '',
        [
          { id: 1, name: 'elevenlabs', kind: 'synthesizer' },
          { id: 2, name: 'cartesia', kind: 'synthesizer' },
          { id: 3, name: 'deepgram', kind: 'transcriber' },
        ],
      ],
      ['providers', '?kind=transcriber', [{ id: 3, name: 'deepgram', kind: 'transcriber' }]],
    ])('%s%s', async (route, query, body) => {
      const res = await t.http.get(`/api/user/assistants/${route}${query}`).set(a.auth);
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body });
    });

    it('requires a user token', async () => {
      const res = await t.http.get('/api/user/assistants/languages');
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { error: 'Unauthorized' } });
    });
  });

  describe('knowledge bases (admin)', () => {
    it("creates with defaults, lists and gets only the owner's, counts assistants", async () => {
      const res = await t.http
        .post(`/api/admin/users/${a.id}/knowledgebases`)
        .set(t.admin)
        .send({ name: 'Product FAQ' });
      expect(res.status).toBe(201);
      const kb = {
        id: expect.any(Number),
        name: 'Product FAQ',
        description: null,
        status: 'active',
        documents_count: 0,
        assistants_count: 0,
        created_at: isoDate,
        updated_at: isoDate,
      };
      expect(res.body).toEqual({ data: kb });
      const id = res.body.data.id as number;
      const second = await t.http
        .post(`/api/admin/users/${a.id}/knowledgebases`)
        .set(t.admin)
        .send({ name: 'Pricing', description: 'Plans', status: 'processing' });
      expect(second.body.data).toEqual({ ...kb, name: 'Pricing', description: 'Plans', status: 'processing' });
      await t.http.post('/api/user/assistant').set(a.auth).send({ name: 'Uses KB', knowledgebase_id: id });

      const list = await t.http.get('/api/user/knowledgebases').set(a.auth);
      expect({ status: list.status, body: list.body }).toEqual({
        status: 200,
        body: { data: [second.body.data, { ...res.body.data, assistants_count: 1 }] },
      });
      const one = await t.http.get(`/api/user/knowledgebases/${id}`).set(a.auth);
      expect({ status: one.status, body: one.body }).toEqual({
        status: 200,
        body: { data: { ...res.body.data, assistants_count: 1 } },
      });
      expect((await t.http.get('/api/user/knowledgebases').set(b.auth)).body).toEqual({ data: [] });
      for (const [user, path] of [
        [b, String(id)],
        [a, '999999'],
        [a, 'faq'],
      ] as const) {
        const miss = await t.http.get(`/api/user/knowledgebases/${path}`).set(user.auth);
        expect({ status: miss.status, body: miss.body }).toEqual({
          status: 404,
          body: { error: 'Knowledgebase not found.' },
        });
      }
    });

    it.each<[Record<string, unknown>, Record<string, string[]>]>([
      [{}, { name: ['The name field is required.'] }],
      [{ name: 'x'.repeat(256) }, { name: ['The name may not be greater than 255 characters.'] }],
      [
        { name: 'x', description: 'x'.repeat(1001) },
        { description: ['The description may not be greater than 1000 characters.'] },
      ],
      [{ name: 'x', status: 'ready' }, { status: ['The selected status is invalid.'] }],
    ])('422 for %j', async (body, errors) => {
      expectInvalid(await t.http.post(`/api/admin/users/${a.id}/knowledgebases`).set(t.admin).send(body), errors);
    });

    it('404 for a missing user, 401 without the admin token', async () => {
      for (const id of ['999999', 'x']) {
        const res = await t.http.post(`/api/admin/users/${id}/knowledgebases`).set(t.admin).send({ name: 'x' });
        expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { message: 'User not found.' } });
      }
      const res = await t.http.post(`/api/admin/users/${a.id}/knowledgebases`).set(a.auth).send({ name: 'x' });
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { error: 'Unauthorized' } });
    });
  });

  describe('event types (admin)', () => {
    it("creates and lists only the owner's", async () => {
      const res = await t.http
        .post(`/api/admin/users/${a.id}/event-types`)
        .set(t.admin)
        .send({ name: '30-minute call', duration_minutes: '30' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        data: { id: expect.any(Number), name: '30-minute call', duration_minutes: 30, created_at: isoDate },
      });
      const list = await t.http.get('/api/user/scheduling/event-types').set(a.auth);
      expect({ status: list.status, body: list.body }).toEqual({ status: 200, body: { data: [res.body.data] } });
      expect((await t.http.get('/api/user/scheduling/event-types').set(b.auth)).body).toEqual({ data: [] });
    });

    it.each<[Record<string, unknown>, Record<string, string[]>]>([
      [{}, { name: ['The name field is required.'], duration_minutes: ['The duration minutes field is required.'] }],
      [{ name: 'x', duration_minutes: 4 }, { duration_minutes: ['The duration minutes must be between 5 and 480.'] }],
      [{ name: 'x', duration_minutes: 481 }, { duration_minutes: ['The duration minutes must be between 5 and 480.'] }],
      [{ name: 'x', duration_minutes: 30.5 }, { duration_minutes: ['The duration minutes must be an integer.'] }],
    ])('422 for %j', async (body, errors) => {
      expectInvalid(await t.http.post(`/api/admin/users/${a.id}/event-types`).set(t.admin).send(body), errors);
    });

    it('404 for a missing user', async () => {
      const res = await t.http
        .post('/api/admin/users/999999/event-types')
        .set(t.admin)
        .send({ name: 'x', duration_minutes: 30 });
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { message: 'User not found.' } });
    });
  });

  describe('compliance (admin)', () => {
    it('blocks and unblocks without touching status', async () => {
      const id = (await t.http.post('/api/user/assistant').set(b.auth).send({ name: 'Risky', system_prompt: 'x' })).body
        .data.id as number;
      await t.http.post(`/api/user/assistant/${id}/activate`).set(b.auth);
      const res = await t.http
        .put(`/api/admin/assistants/${id}/compliance`)
        .set(t.admin)
        .send({ blocked: true, reason: 'Reported by carrier' });
      expect({ status: res.status, body: res.body }).toEqual({
        status: 200,
        body: {
          message: 'Compliance status updated.',
          data: { assistant_id: id, compliance_blocked: true, reason: 'Reported by carrier' },
        },
      });
      expect((await t.http.get(`/api/user/assistant/${id}`).set(b.auth)).body.data).toEqual(
        expect.objectContaining({ status: 'active', compliance_blocked: true }),
      );
      const unblock = await t.http
        .put(`/api/admin/assistants/${id}/compliance`)
        .set(t.admin)
        .send({ blocked: 'false' });
      expect(unblock.body).toEqual({
        message: 'Compliance status updated.',
        data: { assistant_id: id, compliance_blocked: false, reason: null },
      });
      expect((await t.http.get(`/api/user/assistant/${id}`).set(b.auth)).body.data.compliance_blocked).toBe(false);
    });

    it.each<[Record<string, unknown>, Record<string, string[]>]>([
      [{}, { blocked: ['The blocked field is required.'] }],
      [{ blocked: 'maybe' }, { blocked: ['The blocked field must be true or false.'] }],
      [{ blocked: true, reason: 'x'.repeat(501) }, { reason: ['The reason may not be greater than 500 characters.'] }],
    ])('422 for %j', async (body, errors) => {
      expectInvalid(await t.http.put('/api/admin/assistants/1/compliance').set(t.admin).send(body), errors);
    });

    it('404 for a missing or malformed assistant id; 401 for a user token', async () => {
      for (const id of ['999999', 'abc']) {
        const res = await t.http.put(`/api/admin/assistants/${id}/compliance`).set(t.admin).send({ blocked: true });
        expect({ status: res.status, body: res.body }).toEqual({
          status: 404,
          body: { message: 'Assistant not found' },
        });
      }
      const res = await t.http.put('/api/admin/assistants/1/compliance').set(a.auth).send({ blocked: true });
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { error: 'Unauthorized' } });
    });
  });
});
