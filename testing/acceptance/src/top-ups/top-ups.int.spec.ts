import { SandboxNumberInventory } from '@voiceplane/adapter-sandbox';
import { TOKENS } from '@voiceplane/application';
import { NUMBER_COUNTRIES } from '@voiceplane/domain';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { eventually } from '@voiceplane/stand-ins/fault/webhook-receiver';

/** Paid top-ups and auto-recharge in the sandbox, end to end through the composed api. */
let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(async () => t.close());

const balanceOf = async (user: TestUser) =>
  (await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance as number;
const topUpRows = async (user: TestUser) =>
  (await t.db.dataSource.query(`SELECT count(*)::int AS n FROM top_ups WHERE user_id = $1`, [user.id]))[0].n as number;
const topUpCredits = (user: TestUser) =>
  t.db.dataSource.query(
    `SELECT amount, description, reference_type, reference_id FROM ledger_entries WHERE user_id = $1 AND reference_type = 'top_up'`,
    [user.id],
  );

describe('POST /api/user/billing/top-ups', () => {
  it('opens a sandbox checkout: 201 with a pending top-up whose checkout URL carries a one-time token, shown once', async () => {
    const user = await t.createUser({ balance: 0 });
    const res = await t.http.post('/api/user/billing/top-ups').set(user.auth).send({ amount: 19.99 });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      amount: 19.99,
      currency: 'USD',
      status: 'pending',
      trigger: 'checkout',
      checkout_url: expect.stringMatching(
        /^http:\/\/127\.0\.0\.1:3000\/api\/sandbox\/billing\/checkout\/[A-Za-z0-9_-]{43}$/,
      ),
      provider: 'sandbox',
      failure_reason: null,
      created_at: expect.stringMatching(/Z$/),
      completed_at: null,
    });
    const got = await t.http.get(`/api/user/billing/top-ups/${res.body.data.id}`).set(user.auth);
    expect(got.body).toEqual({
      data: { ...res.body.data, checkout_url: 'http://127.0.0.1:3000/api/sandbox/billing/checkout' },
    });
  });

  it.each([
    [{ amount: 4.99 }, ['The amount must be between 5 and 10000.']],
    [{ amount: 10_000.01 }, ['The amount must be between 5 and 10000.']],
    [{ amount: 5.001 }, ['The amount may not have more than 2 decimal places.']],
    [
      { amount: 0.001 },
      ['The amount must be between 5 and 10000.', 'The amount may not have more than 2 decimal places.'],
    ],
    [{ amount: 'lots' }, ['The amount must be a number.']],
    [{}, ['The amount field is required.']],
  ])('%j → 422 and nothing stored', async (body, messages) => {
    const user = await t.createUser();
    const res = await t.http.post('/api/user/billing/top-ups').set(user.auth).send(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { amount: messages } });
    expect(await topUpRows(user)).toBe(0);
  });

  it('an armed billing_charge fault makes the next checkout a 502 that stores nothing, then checkouts work again', async () => {
    const user = await t.createUser();
    const armed = await t.http.post('/api/sandbox/faults').set(user.auth).send({ kind: 'billing_charge' });
    expect(armed.body).toEqual({ ok: true, fault: { kind: 'billing_charge', target_id: null, remaining: 1 } });
    const failed = await t.http.post('/api/user/billing/top-ups').set(user.auth).send({ amount: 50 });
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ message: 'The billing provider is unavailable.' });
    expect(await topUpRows(user)).toBe(0);
    expect((await t.http.post('/api/user/billing/top-ups').set(user.auth).send({ amount: 50 })).status).toBe(201);
  });
});

describe('GET /api/user/billing/top-ups', () => {
  it("lists the caller's own top-ups newest first, filters by status, and hides other accounts' (404)", async () => {
    const owner = await t.createUser();
    const stranger = await t.createUser();
    const ids: number[] = [];
    for (const amount of [10, 20, 30])
      ids.push((await t.http.post('/api/user/billing/top-ups').set(owner.auth).send({ amount })).body.data.id);
    await t.http.post(`/api/sandbox/billing/top-ups/${ids[1]}/complete`).set(owner.auth).send({});
    const list = await t.http.get('/api/user/billing/top-ups?per_page=2').set(owner.auth);
    expect(list.body).toEqual(expect.objectContaining({ current_page: 1, per_page: 2, total: 3, last_page: 2 }));
    expect(list.body.data.map((x: { id: number }) => x.id)).toEqual([ids[2], ids[1]]);
    const succeeded = await t.http.get('/api/user/billing/top-ups?status=succeeded').set(owner.auth);
    expect(succeeded.body.data.map((x: { id: number }) => x.id)).toEqual([ids[1]]);
    expect((await t.http.get('/api/user/billing/top-ups?status=paid').set(owner.auth)).status).toBe(422);
    expect((await t.http.get('/api/user/billing/top-ups').set(stranger.auth)).body.total).toBe(0);
    for (const path of [
      `/api/user/billing/top-ups/${ids[0]}`,
      '/api/user/billing/top-ups/abc',
      '/api/user/billing/top-ups/999999999',
    ]) {
      const res = await t.http.get(path).set(stranger.auth);
      expect([res.status, res.body]).toEqual([404, { message: 'Top-up not found.' }]);
    }
  });
});

describe('POST /api/sandbox/billing/top-ups/{id}/complete', () => {
  it('top-up → complete → one `top_up` ledger entry referencing it → balance; a second complete is a 409 that changes nothing', async () => {
    const user = await t.createUser({ balance: 1 });
    const { id } = (await t.http.post('/api/user/billing/top-ups').set(user.auth).send({ amount: 50 })).body.data;
    const done = await t.http
      .post(`/api/sandbox/billing/top-ups/${id}/complete`)
      .set(user.auth)
      .send({ outcome: 'succeeded' });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      ok: true,
      data: expect.objectContaining({ id, status: 'succeeded', completed_at: expect.stringMatching(/Z$/) }),
    });
    expect(await balanceOf(user)).toBe(51);
    const ledger = await t.http.get('/api/user/billing/ledger?type=top_up').set(user.auth);
    expect(ledger.body.data[0]).toEqual(
      expect.objectContaining({
        type: 'top_up',
        amount: 50,
        balance_after: 51,
        description: `Top-up ${id}`,
        reference: { type: 'top_up', id },
      }),
    );

    for (const outcome of ['succeeded', 'expired', 'failed']) {
      const again = await t.http.post(`/api/sandbox/billing/top-ups/${id}/complete`).set(user.auth).send({ outcome });
      expect([again.status, again.body]).toEqual([409, { message: 'The top-up is already settled.' }]);
    }
    expect(await balanceOf(user)).toBe(51);
    expect(await topUpCredits(user)).toHaveLength(1);
  });

  it('failed records card_declined and expired credits nothing; both are final', async () => {
    const user = await t.createUser({ balance: 0 });
    const failed = (await t.http.post('/api/user/billing/top-ups').set(user.auth).send({ amount: 5 })).body.data.id;
    const expired = (await t.http.post('/api/user/billing/top-ups').set(user.auth).send({ amount: 6 })).body.data.id;
    const f = await t.http
      .post(`/api/sandbox/billing/top-ups/${failed}/complete`)
      .set(user.auth)
      .send({ outcome: 'failed' });
    expect(f.body.data).toEqual(expect.objectContaining({ status: 'failed', failure_reason: 'card_declined' }));
    const e = await t.http
      .post(`/api/sandbox/billing/top-ups/${expired}/complete`)
      .set(user.auth)
      .send({ outcome: 'expired' });
    expect(e.body.data).toEqual(expect.objectContaining({ status: 'expired', failure_reason: null }));
    expect((await t.http.post(`/api/sandbox/billing/top-ups/${expired}/complete`).set(user.auth).send({})).status).toBe(
      409,
    );
    expect(await balanceOf(user)).toBe(0);
    expect(await topUpCredits(user)).toHaveLength(0);
  });

  it("5 concurrent completions credit once; another account's or an unknown id is a 404; a bad outcome a 422", async () => {
    const user = await t.createUser({ balance: 0 });
    const stranger = await t.createUser();
    const { id } = (await t.http.post('/api/user/billing/top-ups').set(user.auth).send({ amount: 25 })).body.data;
    const foreign = await t.http.post(`/api/sandbox/billing/top-ups/${id}/complete`).set(stranger.auth).send({});
    expect([foreign.status, foreign.body]).toEqual([404, { message: 'Not found.' }]);
    expect((await t.http.post('/api/sandbox/billing/top-ups/x/complete').set(user.auth).send({})).status).toBe(404);
    expect(
      (await t.http.post(`/api/sandbox/billing/top-ups/${id}/complete`).set(user.auth).send({ outcome: 'paid' }))
        .status,
    ).toBe(422);

    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.http.post(`/api/sandbox/billing/top-ups/${id}/complete`).set(user.auth).send({}),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await balanceOf(user)).toBe(25);
    expect(await topUpCredits(user)).toHaveLength(1);
  });
});

describe('auto-recharge', () => {
  it('GET answers the defaults; PUT checks every field and keeps what it was not sent', async () => {
    const user = await t.createUser();
    const got = await t.http.get('/api/user/billing/auto-recharge').set(user.auth);
    expect(got.body).toEqual({
      data: {
        enabled: false,
        threshold: 5,
        amount: 25,
        payment_method_ready: true,
        consecutive_failures: 0,
        last_attempt_at: null,
        last_error: null,
      },
    });
    const bad = await t.http
      .put('/api/user/billing/auto-recharge')
      .set(user.auth)
      .send({ threshold: 1000.5, amount: 4.123, enabled: 'maybe' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ enabled: ['The enabled field must be true or false.'] });
    const bounds = await t.http
      .put('/api/user/billing/auto-recharge')
      .set(user.auth)
      .send({ threshold: 1000.5, amount: 4.123 });
    expect(bounds.body.errors).toEqual({
      threshold: ['The threshold must be between 0 and 1000.'],
      amount: ['The amount must be between 5 and 10000.', 'The amount may not have more than 2 decimal places.'],
    });
    const put = await t.http
      .put('/api/user/billing/auto-recharge')
      .set(user.auth)
      .send({ enabled: true, threshold: 10 });
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual(expect.objectContaining({ enabled: true, threshold: 10, amount: 25 }));
    expect((await t.http.get('/api/user/billing/auto-recharge').set(user.auth)).body).toEqual(put.body);
  });

  it('a number purchase that leaves the balance below the threshold tops it up with an `auto` top-up, credited once', async () => {
    const inventory = t.runtime.container.get<SandboxNumberInventory>(TOKENS.NumberInventory);
    const offer = NUMBER_COUNTRIES.flatMap((c) => inventory.numbersOf(c)).find(
      (n) => n.addressRequirements === 'none' && n.price >= 1 && n.price < 5,
    )!;
    const user = await t.createUser({ balance: 5.5 });
    await t.http
      .put('/api/user/billing/auto-recharge')
      .set(user.auth)
      .send({ enabled: true, threshold: 5, amount: 30 });
    expect(
      (await t.http.post('/api/user/phone-numbers/purchase').set(user.auth).send({ phone_number: offer.phoneNumber }))
        .status,
    ).toBe(201);

    await eventually(
      async () => (await t.http.get('/api/user/billing/top-ups?status=succeeded').set(user.auth)).body.total === 1,
      'the auto top-up to succeed',
    );
    const [auto] = (await t.http.get('/api/user/billing/top-ups').set(user.auth)).body.data;
    expect(auto).toEqual(
      expect.objectContaining({
        trigger: 'auto',
        amount: 30,
        status: 'succeeded',
        checkout_url: null,
        provider: 'sandbox',
      }),
    );
    expect(await balanceOf(user)).toBeCloseTo(5.5 - offer.price + 30, 4);
    expect(await topUpCredits(user)).toEqual([
      expect.objectContaining({ description: `Top-up ${auto.id}`, reference_id: String(auto.id) }),
    ]);
    const settings = (await t.http.get('/api/user/billing/auto-recharge').set(user.auth)).body.data;
    expect(settings).toEqual(
      expect.objectContaining({
        enabled: true,
        consecutive_failures: 0,
        last_error: null,
        last_attempt_at: expect.stringMatching(/Z$/),
      }),
    );
  });
});
