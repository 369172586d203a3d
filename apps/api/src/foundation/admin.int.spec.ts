import { createTestApi, TestApi } from '@voiceplane/test-env';

describe('admin API and billing', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await createTestApi();
  });
  afterAll(async () => t.close());

  it('creates a user with balance, plan, default key and an opening-balance entry', async () => {
    const email = `Admin.Made${Date.now()}@Example.test`;
    const res = await t.http
      .post('/api/admin/users')
      .set(t.admin)
      .send({ name: 'Acme', email, balance: 12.5, plan: { max_mid_call_tools: 3 } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      user: {
        id: expect.any(Number),
        name: 'Acme',
        email,
        disabled: false,
        total_balance: 12.5,
        plan: {
          name: 'standard',
          max_mid_call_tools: 3,
          api_rate_limit_per_minute: 600,
          chatapp_calling_enabled: true,
          included_template_messages: 0,
          max_concurrent_calls: 10,
          max_knowledge_bases: 10,
          max_knowledge_base_documents: 200,
          max_campaigns: 100,
          max_knowledge_base_bytes: 104857600,
        },
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
      api_key: {
        id: expect.any(Number),
        name: 'default',
        token: expect.stringMatching(/^vp_/),
        created_at: expect.any(String),
      },
    });
    const auth = { Authorization: `Bearer ${res.body.api_key.token}` };
    const ledger = await t.http.get('/api/user/billing/ledger').set(auth);
    expect(ledger.body).toEqual({
      data: [
        {
          id: expect.any(Number),
          type: 'top_up',
          amount: 12.5,
          balance_after: 12.5,
          description: 'Opening balance',
          reference: null,
          created_at: expect.any(String),
        },
      ],
      current_page: 1,
      per_page: 15,
      total: 1,
      last_page: 1,
    });
    const dup = await t.http.post('/api/admin/users').set(t.admin).send({ name: 'Again', email: email.toLowerCase() });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ message: 'A user with this email already exists.' });
  });

  it('validates user creation', async () => {
    const res = await t.http
      .post('/api/admin/users')
      .set(t.admin)
      .send({ email: 'bad', password: 'short', balance: -1, plan: { api_rate_limit_per_minute: 0 } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'The given data was invalid.',
      errors: {
        name: ['The name field is required.'],
        email: ['The email must be a valid email address.'],
        password: ['The password must be between 8 and 255 characters.'],
        balance: ['The balance must be at least 0.'],
      },
    });
    const plan = await t.http
      .post('/api/admin/users')
      .set(t.admin)
      .send({ name: 'x', email: `p${Date.now()}@e.test`, plan: { api_rate_limit_per_minute: 0 } });
    expect(plan.body.errors).toEqual({
      'plan.api_rate_limit_per_minute': ['The plan.api_rate_limit_per_minute must be between 1 and 100000.'],
    });
  });

  it('tops up and corrects balances with ledger entries; billing balance reflects them', async () => {
    const u = await t.createUser({ balance: 10 });
    const up = await t.http
      .post(`/api/admin/users/${u.id}/balance`)
      .set(t.admin)
      .send({ amount: 5.25, note: 'Invoice 42' });
    expect(up.status).toBe(200);
    expect(up.body).toEqual({
      message: 'Balance updated.',
      total_balance: 15.25,
      entry: expect.objectContaining({
        type: 'top_up',
        amount: 5.25,
        balance_after: 15.25,
        description: 'Invoice 42',
        reference: null,
      }),
    });
    const down = await t.http
      .post(`/api/admin/users/${u.id}/balance`)
      .set(t.admin)
      .send({ amount: '-20', note: 'Refund reversal' });
    expect(down.body.total_balance).toBe(-4.75);
    expect(down.body.entry.type).toBe('adjustment');
    const balance = await t.http.get('/api/user/billing/balance').set(u.auth);
    expect(balance.body).toEqual(
      expect.objectContaining({ total_balance: -4.75, currency: 'USD', included_template_messages_remaining: 0 }),
    );
    const ledger = await t.http.get('/api/user/billing/ledger?type=adjustment').set(u.auth);
    expect(ledger.body.data.map((e: { amount: number }) => e.amount)).toEqual([-20]);
    for (const body of [{ amount: 0, note: 'x' }, { amount: 1.00001, note: 'x' }, { note: 'x' }]) {
      expect((await t.http.post(`/api/admin/users/${u.id}/balance`).set(t.admin).send(body)).status).toBe(422);
    }
    const missing = await t.http.post('/api/admin/users/999999/balance').set(t.admin).send({ amount: 1, note: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'User not found.' });
  });

  it('keeps the balance consistent under concurrent top-ups', async () => {
    const u = await t.createUser({ balance: 0 });
    await Promise.all(
      Array.from({ length: 20 }, () =>
        t.http.post(`/api/admin/users/${u.id}/balance`).set(t.admin).send({ amount: 0.1, note: 'drip' }),
      ),
    );
    const me = await t.http.get('/api/user/me').set(u.auth);
    expect(me.body.total_balance).toBe(2);
    const ledger = await t.http.get('/api/user/billing/ledger?per_page=100').set(u.auth);
    const afters = ledger.body.data
      .map((e: { balance_after: number }) => e.balance_after)
      .sort((x: number, y: number) => x - y);
    expect(afters).toEqual(Array.from({ length: 20 }, (_, i) => Math.round((i + 1) * 0.1 * 10000) / 10000));
  });

  it('updates plans partially, lists and gets users, paginates', async () => {
    const u = await t.createUser();
    const plan = await t.http
      .put(`/api/admin/users/${u.id}/plan`)
      .set(t.admin)
      .send({ max_mid_call_tools: 25, name: 'pro' });
    expect(plan.body).toEqual({
      message: 'Plan updated.',
      plan: {
        name: 'pro',
        max_mid_call_tools: 25,
        api_rate_limit_per_minute: 600,
        chatapp_calling_enabled: true,
        included_template_messages: 0,
        max_concurrent_calls: 10,
        max_knowledge_bases: 10,
        max_knowledge_base_documents: 200,
        max_campaigns: 100,
        max_knowledge_base_bytes: 104857600,
      },
    });
    expect((await t.http.get('/api/user/me').set(u.auth)).body.plan.max_mid_call_tools).toBe(25);
    const one = await t.http.get(`/api/admin/users/${u.id}`).set(t.admin);
    expect(one.body.data.email).toBe(u.email);
    const byEmail = await t.http
      .get(`/api/admin/users?email=${encodeURIComponent(u.email.toUpperCase())}`)
      .set(t.admin);
    expect(byEmail.body.data.map((x: { id: number }) => x.id)).toEqual([u.id]);
    const page = await t.http.get('/api/admin/users?per_page=1&page=2').set(t.admin);
    expect(page.body).toEqual(expect.objectContaining({ current_page: 2, per_page: 1, data: [expect.any(Object)] }));
    const bad = await t.http.get('/api/admin/users?per_page=101&page=0').set(t.admin);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      page: ['The page must be at least 1.'],
      per_page: ['The per page must be between 1 and 100.'],
    });
    expect((await t.http.get('/api/admin/users/abc').set(t.admin)).status).toBe(404);
  });
});
