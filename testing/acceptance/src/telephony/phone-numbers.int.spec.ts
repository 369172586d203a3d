import { SandboxNumberInventory } from '@voiceplane/adapter-sandbox';
import { RenewPhoneNumbers, TOKENS } from '@voiceplane/application';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/** Number search, owned numbers, purchase, release and renewals. */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const INVALID = 'The given data was invalid.';
const CONTAINS = 'The contains may only contain up to 10 digits.';
const NOT_AVAILABLE = { error: 'Phone number is not available.' };
const NOT_FOUND = { error: 'Phone number not found.' };

let t: TestApi;
let owner: TestUser;
let stranger: TestUser;
let inventory: SandboxNumberInventory;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser({ balance: 100 });
  stranger = await t.createUser({ balance: 100 });
  inventory = t.runtime.container.get<SandboxNumberInventory>(TOKENS.NumberInventory);
});
afterAll(async () => {
  await t.close();
});

const wire = (n: ReturnType<SandboxNumberInventory['numbersOf']>[number]) => ({
  phone_number: n.phoneNumber,
  phone_number_formatted: n.phoneNumberFormatted,
  country_code: n.countryCode,
  price: n.price,
  billing_price_id: n.billingPriceId,
  address_requirements: n.addressRequirements,
  sms_capable: n.smsCapable,
});

/** A catalogue number of the country with the given requirement that nobody owns yet. */
async function freeNumber(country: 'US' | 'GB' | 'IT', requirement = 'none'): Promise<string> {
  const owned = new Set(
    (await t.db.dataSource.query(`SELECT phone_number FROM phone_numbers WHERE type = 'purchased'`)).map(
      (r: { phone_number: string }) => r.phone_number,
    ),
  );
  const n = inventory
    .numbersOf(country)
    .find((x) => x.addressRequirements === requirement && !owned.has(x.phoneNumber));
  if (!n) throw new Error(`no free ${requirement} number in ${country}`);
  return n.phoneNumber;
}

async function balanceOf(user: TestUser): Promise<number> {
  return (await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance;
}

async function buy(user: TestUser, phoneNumber: string): Promise<number> {
  const res = await t.http.post('/api/user/phone-numbers/purchase').set(user.auth).send({ phone_number: phoneNumber });
  if (res.status !== 201) throw new Error(`purchase failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

describe('GET /api/user/phone-numbers/search', () => {
  it('defaults to the US and answers 20 numbers with every field of the spec', async () => {
    const res = await t.http.get('/api/user/phone-numbers/search').set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: inventory.numbersOf('US').map(wire) });
    expect(res.body.data).toHaveLength(20);
    expect(res.body.data[0]).toEqual({
      phone_number: expect.stringMatching(/^\+1\d{10}$/),
      phone_number_formatted: expect.stringMatching(/^\(\d{3}\) 555-01\d\d$/),
      country_code: 'US',
      price: 1.15,
      billing_price_id: 'price_us_local_monthly',
      address_requirements: expect.any(String),
      sms_capable: true,
    });
  });

  it.each(['US', 'CA', 'GB', 'AU', 'IL', 'PL', 'FI', 'NL', 'DK', 'IT', 'DE'])(
    'serves %s (lower case accepted), the same answer every time',
    async (country) => {
      const first = await t.http
        .get(`/api/user/phone-numbers/search?country_code=${country.toLowerCase()}`)
        .set(owner.auth);
      expect(first.status).toBe(200);
      expect(first.body.data.length).toBeGreaterThan(0);
      expect(first.body.data.every((n: { country_code: string }) => n.country_code === country)).toBe(true);
      const again = await t.http.get(`/api/user/phone-numbers/search?country_code=${country}`).set(owner.auth);
      expect(again.body).toEqual(first.body);
    },
  );

  it("offers Famulor's default country DE as the MCP server's search_phone_numbers asks for it, and buys from it", async () => {
    const res = await t.http.get('/api/user/phone-numbers/search?country_code=DE&contains=3023125').set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data[0]).toEqual(
      expect.objectContaining({
        phone_number: expect.stringMatching(/^\+493023125\d{3}$/),
        phone_number_formatted: expect.stringMatching(/^030 /),
        country_code: 'DE',
        price: 2,
        billing_price_id: 'price_de_local_monthly',
      }),
    );
    const offer = inventory.numbersOf('DE').find((n) => n.addressRequirements === 'none')!;
    const bought = await t.http
      .post('/api/user/phone-numbers/purchase')
      .set(owner.auth)
      .send({ phone_number: offer.phoneNumber });
    expect([bought.status, bought.body.data]).toEqual([
      201,
      expect.objectContaining({ phone_number: offer.phoneNumber, country_code: 'DE' }),
    ]);
  });

  it('matches the digits anywhere in the number', async () => {
    const res = await t.http.get('/api/user/phone-numbers/search?country_code=GB&contains=7700900').set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data.every((n: { phone_number: string }) => n.phone_number.startsWith('+447700900'))).toBe(true);
    const tail = inventory.numbersOf('GB')[4].phoneNumber.slice(-4);
    const byTail = await t.http.get(`/api/user/phone-numbers/search?country_code=GB&contains=${tail}`).set(owner.auth);
    expect(byTail.body.data.map((n: { phone_number: string }) => n.phone_number)).toContain(
      inventory.numbersOf('GB')[4].phoneNumber,
    );
    expect(byTail.body.data.every((n: { phone_number: string }) => n.phone_number.includes(tail))).toBe(true);
  });

  it('answers an empty list when nothing matches; an empty filter is no filter', async () => {
    const none = await t.http.get('/api/user/phone-numbers/search?country_code=US&contains=9999999999').set(owner.auth);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ data: [] });
    const blank = await t.http.get('/api/user/phone-numbers/search?contains=').set(owner.auth);
    expect(blank.body.data).toHaveLength(20);
  });

  it.each<[string, Record<string, string[]>]>([
    ['country_code=FR', { country_code: ['The selected country code is invalid.'] }],
    ['country_code=USA', { country_code: ['The selected country code is invalid.'] }],
    ['contains=12345678901', { contains: [CONTAINS] }],
    ['contains=12a', { contains: [CONTAINS] }],
    ['contains=%2B44', { contains: [CONTAINS] }],
    ['contains[]=1', { contains: [CONTAINS] }],
    ['country_code=XX&contains=-1', { country_code: ['The selected country code is invalid.'], contains: [CONTAINS] }],
  ])('?%s → 422', async (query, errors) => {
    const res = await t.http.get(`/api/user/phone-numbers/search?${query}`).set(owner.auth);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: INVALID, errors });
  });

  it('never offers a number any account owns', async () => {
    const phone = await freeNumber('IT');
    await buy(stranger, phone);
    for (const user of [owner, stranger]) {
      const res = await t.http.get('/api/user/phone-numbers/search?country_code=IT').set(user.auth);
      expect(res.body.data.map((n: { phone_number: string }) => n.phone_number)).not.toContain(phone);
      expect(res.body.data).toHaveLength(19);
    }
  });

  it('a provider failure is a 502 (sandbox fault number_inventory), for the arming account only', async () => {
    const armed = await t.http.post('/api/sandbox/faults').set(owner.auth).send({ kind: 'number_inventory', count: 1 });
    expect(armed.body).toEqual({ ok: true, fault: { kind: 'number_inventory', target_id: null, remaining: 1 } });
    expect((await t.http.get('/api/user/phone-numbers/search').set(stranger.auth)).status).toBe(200);
    const res = await t.http.get('/api/user/phone-numbers/search').set(owner.auth);
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ message: 'Number search is temporarily unavailable.' });
    expect((await t.http.get('/api/user/phone-numbers/search').set(owner.auth)).status).toBe(200);
  });

  it('needs a token', async () => {
    const res = await t.http.get('/api/user/phone-numbers/search');
    expect([res.status, res.body]).toEqual([401, { error: 'Unauthorized' }]);
  });
});

describe('POST /api/user/phone-numbers/purchase', () => {
  it('buys the number, charges the first month with a ledger entry and lists it', async () => {
    const user = await t.createUser({ balance: 10 });
    const phone = await freeNumber('GB');
    const offer = inventory.numbersOf('GB').find((n) => n.phoneNumber === phone)!;
    const res = await t.http.post('/api/user/phone-numbers/purchase').set(user.auth).send({ phone_number: phone });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: 'Phone number purchased successfully.',
      data: {
        id: expect.any(Number),
        phone_number: phone,
        country_code: 'GB',
        type: 'purchased',
        sms_capable: offer.smsCapable,
      },
    });
    const id = res.body.data.id;
    expect(await balanceOf(user)).toBe(10 - offer.price);
    const ledger = await t.http.get('/api/user/billing/ledger?type=charge').set(user.auth);
    expect(ledger.body.data).toEqual([
      {
        id: expect.any(Number),
        type: 'charge',
        amount: -offer.price,
        balance_after: 10 - offer.price,
        description: `Phone number ${phone} (first month)`,
        reference: { type: 'phone_number', id },
        created_at: expect.stringMatching(ISO),
      },
    ]);
    const listed = await t.http.get('/api/user/phone-numbers').set(user.auth);
    expect(listed.body).toEqual({
      data: [
        {
          id,
          phone_number: phone,
          type: 'purchased',
          country_code: 'GB',
          nickname: null,
          sms_capable: offer.smsCapable,
          monthly_price: offer.price,
          inbound_assistant_id: null,
          created_at: expect.stringMatching(ISO),
          updated_at: expect.stringMatching(ISO),
        },
      ],
    });
    const [row] = await t.db.dataSource.query(`SELECT created_at, renews_at FROM phone_numbers WHERE id = $1`, [id]);
    const created = new Date(row.created_at);
    const renews = new Date(row.renews_at);
    expect(renews.getUTCDate()).toBe(
      Math.min(
        created.getUTCDate(),
        new Date(Date.UTC(created.getUTCFullYear(), created.getUTCMonth() + 2, 0)).getUTCDate(),
      ),
    );
    expect((renews.getUTCMonth() - created.getUTCMonth() + 12) % 12).toBe(1);
  });

  it('accepts inventory numbers; refuses numbers that need a registered address', async () => {
    expect(await buy(owner, await freeNumber('US', 'inventory'))).toEqual(expect.any(Number));
    for (const requirement of ['local', 'foreign']) {
      const phone = await freeNumber('US', requirement);
      const res = await t.http.post('/api/user/phone-numbers/purchase').set(owner.auth).send({ phone_number: phone });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'This number requires a registered address, which is not supported.' });
    }
  });

  it('a number someone owns, or that the inventory does not offer, is not available', async () => {
    const phone = await freeNumber('US');
    await buy(stranger, phone);
    for (const user of [owner, stranger]) {
      const res = await t.http.post('/api/user/phone-numbers/purchase').set(user.auth).send({ phone_number: phone });
      expect([res.status, res.body]).toEqual([400, NOT_AVAILABLE]);
    }
    const unknown = await t.http
      .post('/api/user/phone-numbers/purchase')
      .set(owner.auth)
      .send({ phone_number: '+14155559999' });
    expect([unknown.status, unknown.body]).toEqual([400, NOT_AVAILABLE]);
  });

  it('refuses with 402 when the balance does not cover the first month, storing and charging nothing', async () => {
    const poor = await t.createUser({ balance: 1 });
    const phone = await freeNumber('GB');
    const res = await t.http.post('/api/user/phone-numbers/purchase').set(poor.auth).send({ phone_number: phone });
    expect([res.status, res.body]).toEqual([402, { error: 'Insufficient balance.' }]);
    expect(await balanceOf(poor)).toBe(1);
    expect((await t.http.get('/api/user/phone-numbers').set(poor.auth)).body).toEqual({ data: [] });
  });

  it.each<[unknown, Record<string, string[]>]>([
    [{}, { phone_number: ['The phone number field is required.'] }],
    [{ phone_number: '4155550134' }, { phone_number: ['The phone number must be a valid E.164 phone number.'] }],
    [{ phone_number: '+0123456789' }, { phone_number: ['The phone number must be a valid E.164 phone number.'] }],
    [{ phone_number: 14155550134 }, { phone_number: ['The phone number must be a string.'] }],
  ])('validates %p', async (sent, errors) => {
    const res = await t.http
      .post('/api/user/phone-numbers/purchase')
      .set(owner.auth)
      .send(sent as object);
    expect([res.status, res.body]).toEqual([422, { message: INVALID, errors }]);
  });

  it('a provider failure is a 500 with nothing stored or charged (sandbox fault)', async () => {
    const user = await t.createUser({ balance: 10 });
    const phone = await freeNumber('US');
    await t.http.post('/api/sandbox/faults').set(user.auth).send({ kind: 'number_inventory' });
    const res = await t.http.post('/api/user/phone-numbers/purchase').set(user.auth).send({ phone_number: phone });
    expect([res.status, res.body]).toEqual([
      500,
      { error: 'Failed to purchase phone number. Please try again or contact support.' },
    ]);
    expect(await balanceOf(user)).toBe(10);
    expect((await t.http.get('/api/user/phone-numbers').set(user.auth)).body).toEqual({ data: [] });
    expect(await buy(user, phone)).toEqual(expect.any(Number));
  });

  it('a database failure after the provider purchase gives the number back and charges nothing', async () => {
    const user = await t.createUser({ balance: 10 });
    const phone = await freeNumber('US');
    await t.db.dataSource.query(
      `CREATE FUNCTION vp_test_refuse_ledger() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by test'; END $$`,
    );
    await t.db.dataSource.query(
      `CREATE TRIGGER vp_test_refuse_ledger BEFORE INSERT ON ledger_entries FOR EACH ROW EXECUTE FUNCTION vp_test_refuse_ledger()`,
    );
    try {
      const res = await t.http.post('/api/user/phone-numbers/purchase').set(user.auth).send({ phone_number: phone });
      expect([res.status, res.body]).toEqual([
        500,
        { error: 'Failed to purchase phone number. Please try again or contact support.' },
      ]);
    } finally {
      await t.db.dataSource.query(`DROP TRIGGER vp_test_refuse_ledger ON ledger_entries`);
      await t.db.dataSource.query(`DROP FUNCTION vp_test_refuse_ledger()`);
    }
    expect(await balanceOf(user)).toBe(10);
    expect(await t.db.dataSource.query(`SELECT id FROM phone_numbers WHERE phone_number = $1`, [phone])).toEqual([]);
  });

  it('replays with the same Idempotency-Key instead of buying twice', async () => {
    const user = await t.createUser({ balance: 10 });
    const phone = await freeNumber('US');
    const first = await t.http
      .post('/api/user/phone-numbers/purchase')
      .set(user.auth)
      .set('Idempotency-Key', 'buy-1')
      .send({ phone_number: phone });
    const again = await t.http
      .post('/api/user/phone-numbers/purchase')
      .set(user.auth)
      .set('Idempotency-Key', 'buy-1')
      .send({ phone_number: phone });
    expect(first.status).toBe(201);
    expect([again.status, again.body, again.headers['idempotent-replayed']]).toEqual([201, first.body, 'true']);
    expect(await balanceOf(user)).toBe(10 - 1.15);
  });
});

describe('GET /api/user/phone-numbers and DELETE /api/user/phone-numbers/{id}', () => {
  it('lists only the account’s own numbers, newest first, with its inbound assistant', async () => {
    const user = await t.createUser({ balance: 20 });
    const a = await buy(user, await freeNumber('US'));
    const b = await buy(user, await freeNumber('US'));
    await buy(stranger, await freeNumber('US'));
    const assistant = await t.http
      .post('/api/user/assistant')
      .set(user.auth)
      .send({ name: 'Reception', type: 'inbound', phone_number_id: a });
    expect(assistant.status).toBe(201);
    const res = await t.http.get('/api/user/phone-numbers').set(user.auth);
    expect(res.body.data.map((n: { id: number }) => n.id)).toEqual([b, a]);
    expect(res.body.data.map((n: { inbound_assistant_id: number | null }) => n.inbound_assistant_id)).toEqual([
      null,
      assistant.body.data.id,
    ]);
  });

  it('releases a purchased number without refund, unassigns it from assistants, and offers it again', async () => {
    const user = await t.createUser({ balance: 20 });
    const phone = await freeNumber('US');
    const id = await buy(user, phone);
    const inbound = await t.http
      .post('/api/user/assistant')
      .set(user.auth)
      .send({ name: 'In', type: 'inbound', phone_number_id: id });
    const outbound = await t.http.post('/api/user/assistant').set(user.auth).send({ name: 'Out', phone_number_id: id });
    const balance = await balanceOf(user);
    const res = await t.http.delete(`/api/user/phone-numbers/${id}`).set(user.auth);
    expect([res.status, res.body]).toEqual([200, { message: 'Phone number deleted successfully.' }]);
    expect(await balanceOf(user)).toBe(balance);
    for (const a of [inbound, outbound]) {
      const read = await t.http.get(`/api/user/assistant/${a.body.data.id}`).set(user.auth);
      expect(read.body.data.phone_number_id).toBeNull();
    }
    expect((await t.http.get('/api/user/phone-numbers').set(user.auth)).body).toEqual({ data: [] });
    const search = await t.http.get(`/api/user/phone-numbers/search?contains=${phone.slice(2)}`).set(owner.auth);
    expect(search.body.data.map((n: { phone_number: string }) => n.phone_number)).toEqual([phone]);
  });

  it('a release failure answers 500 and keeps the number (fault aimed at it)', async () => {
    const user = await t.createUser({ balance: 20 });
    const id = await buy(user, await freeNumber('US'));
    const listed = (await t.http.get('/api/user/phone-numbers').set(user.auth)).body;
    const armed = await t.http
      .post('/api/sandbox/faults')
      .set(user.auth)
      .send({ kind: 'number_inventory', target_id: id });
    expect(armed.body).toEqual({ ok: true, fault: { kind: 'number_inventory', target_id: id, remaining: 1 } });
    const res = await t.http.delete(`/api/user/phone-numbers/${id}`).set(user.auth);
    expect([res.status, res.body]).toEqual([
      500,
      { error: 'Failed to delete phone number. Please try again or contact support.' },
    ]);
    expect((await t.http.get('/api/user/phone-numbers').set(user.auth)).body).toEqual(listed);
  });

  it('another account’s number is not found, for delete and as a fault target', async () => {
    const theirs = await buy(stranger, await freeNumber('US'));
    const res = await t.http.delete(`/api/user/phone-numbers/${theirs}`).set(owner.auth);
    expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    const fault = await t.http
      .post('/api/sandbox/faults')
      .set(owner.auth)
      .send({ kind: 'number_inventory', target_id: theirs });
    expect([fault.status, fault.body]).toEqual([404, { message: 'Not found.' }]);
    expect(
      (await t.http.get('/api/user/phone-numbers').set(stranger.auth)).body.data.map((n: { id: number }) => n.id),
    ).toContain(theirs);
    for (const id of ['999999999', 'x', '0']) {
      const missing = await t.http.delete(`/api/user/phone-numbers/${id}`).set(owner.auth);
      expect([missing.status, missing.body]).toEqual([404, NOT_FOUND]);
    }
  });
});

describe('PUT /api/user/phone-numbers/{id} (nickname)', () => {
  it("sets and clears the nickname as the MCP server's update_phone_number sends it, for the owner only", async () => {
    const id = await buy(owner, await freeNumber('US'));
    const res = await t.http.put(`/api/user/phone-numbers/${id}`).set(owner.auth).send({ nickname: '  Sales line ' });
    expect([res.status, res.body]).toEqual([
      200,
      {
        message: 'Phone number updated successfully.',
        data: expect.objectContaining({
          id,
          nickname: 'Sales line',
          type: 'purchased',
          country_code: 'US',
          updated_at: expect.stringMatching(ISO),
        }),
      },
    ]);
    const listed = (await t.http.get('/api/user/phone-numbers/all').set(owner.auth)).body.data.find(
      (n: { id: number }) => n.id === id,
    );
    expect(listed).toEqual(res.body.data);
    // The MCP server sends `nickname ?? null` to clear it; "" clears it too.
    for (const cleared of [null, '']) {
      const again = await t.http.put(`/api/user/phone-numbers/${id}`).set(owner.auth).send({ nickname: cleared });
      expect([again.status, again.body.data.nickname]).toEqual([200, null]);
    }
    const foreign = await t.http.put(`/api/user/phone-numbers/${id}`).set(stranger.auth).send({ nickname: 'Mine' });
    expect([foreign.status, foreign.body]).toEqual([404, NOT_FOUND]);
    for (const bad of ['999999999', 'abc', '12345678901234567890123']) {
      const miss = await t.http.put(`/api/user/phone-numbers/${bad}`).set(owner.auth).send({ nickname: 'x' });
      expect([miss.status, miss.body]).toEqual([404, NOT_FOUND]);
    }
  });

  it.each<[unknown, Record<string, string[]>]>([
    [{ nickname: 'x'.repeat(51) }, { nickname: ['The nickname may not be greater than 50 characters.'] }],
    [{ nickname: 5 }, { nickname: ['The nickname must be a string.'] }],
    [{}, { nickname: ['The nickname field must be present.'] }],
    [[], { body: ['The request body must be a JSON object.'] }],
  ])('422 for %j, changing nothing', async (body, errors) => {
    const id = await buy(owner, await freeNumber('US'));
    await t.http.put(`/api/user/phone-numbers/${id}`).set(owner.auth).send({ nickname: 'Kept' }).expect(200);
    const res = await t.http
      .put(`/api/user/phone-numbers/${id}`)
      .set(owner.auth)
      .send(body as object);
    expect([res.status, res.body]).toEqual([422, { message: INVALID, errors }]);
    const listed = (await t.http.get('/api/user/phone-numbers').set(owner.auth)).body.data.find(
      (n: { id: number }) => n.id === id,
    );
    expect(listed.nickname).toBe('Kept');
  });
});

describe('monthly renewals', () => {
  it('charges each due number once per due date, may go below zero, and moves the date on by a month', async () => {
    const user = await t.createUser({ balance: 2 });
    const phone = await freeNumber('US');
    const id = await buy(user, phone);
    await t.db.dataSource.query(
      `UPDATE phone_numbers SET created_at = '2026-01-31T10:00:00Z', renews_at = '2026-02-28T10:00:00Z' WHERE id = $1`,
      [id],
    );
    const renewals = t.runtime.container.get(RenewPhoneNumbers);
    expect(await renewals.runDue()).toBeGreaterThanOrEqual(1);
    const [row] = await t.db.dataSource.query(`SELECT renews_at FROM phone_numbers WHERE id = $1`, [id]);
    // Missed months are caught up one per due date; the next one is in the future.
    expect(new Date(row.renews_at).getTime()).toBeGreaterThan(Date.now());
    expect(new Date(row.renews_at).toISOString()).toMatch(/T10:00:00\.000Z$/);
    const ledger = await t.http.get('/api/user/billing/ledger?type=charge&per_page=100').set(user.auth);
    const renewalsCharged = ledger.body.data.filter(
      (e: { description: string }) => e.description === `Phone number ${phone} (monthly renewal)`,
    );
    expect(renewalsCharged.length).toBeGreaterThanOrEqual(1);
    expect(renewalsCharged[0]).toMatchObject({ amount: -1.15, reference: { type: 'phone_number', id } });
    expect(await balanceOf(user)).toBeCloseTo(2 - 1.15 * (1 + renewalsCharged.length), 4);
    expect(await balanceOf(user)).toBeLessThan(0);
    expect(await renewals.runDue()).toBe(0);
  });
});
