import { createHash } from 'node:crypto';
import { ReconcileTopUps, TOKENS } from '@voiceplane/application';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/**
 * The sandbox checkout page behind a sandbox top-up's `checkout_url`, through the composed api: opened without a
 * Bearer token, it shows the amount and settles the top-up once (Pay → succeeded and credited, Decline → failed),
 * then shows the result; a used or unknown link gets a clear page.
 */
let t: TestApi;
beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
});
afterAll(async () => t.close());

const PAGE = 'http://127.0.0.1:3000/api/sandbox/billing/checkout';
const balanceOf = async (user: TestUser) =>
  (await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance as number;
const topUpOf = async (user: TestUser, id: number) =>
  (await t.http.get(`/api/user/billing/top-ups/${id}`).set(user.auth)).body.data;
const credits = async (user: TestUser) =>
  (
    await t.db.dataSource.query(
      `SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1 AND reference_type = 'top_up'`,
      [user.id],
    )
  )[0].n as number;

/** A pending top-up and the path of its checkout page (the URL as created, without the host). */
async function checkout(
  user: TestUser,
  amount = 50,
): Promise<{ id: number; url: string; path: string; token: string }> {
  const res = await t.http.post('/api/user/billing/top-ups').set(user.auth).send({ amount });
  expect(res.status).toBe(201);
  const url = res.body.data.checkout_url as string;
  expect(url.startsWith(`${PAGE}/`)).toBe(true);
  return { id: res.body.data.id, url, path: new URL(url).pathname, token: url.slice(PAGE.length + 1) };
}
const choose = (path: string, choice: string) => t.http.post(path).type('form').send({ choice });

describe('the sandbox checkout page', () => {
  it('keeps only a hash of the one-time token: the row holds no copy of it, reads show the page without it', async () => {
    const user = await t.createUser();
    const c = await checkout(user);
    expect(c.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await t.db.dataSource.query(`SELECT * FROM top_ups WHERE id = $1`, [c.id]);
    expect(JSON.stringify(row)).not.toContain(c.token);
    expect(row.provider_reference).toBe(`sandbox_checkout:${createHash('sha256').update(c.token).digest('hex')}`);
    expect((await topUpOf(user, c.id)).checkout_url).toBe(PAGE);
    expect((await checkout(user)).token).not.toBe(c.token);
  });

  it('shows the amount and the two choices to a browser with no token, as a page nothing else may frame or cache', async () => {
    const user = await t.createUser();
    const c = await checkout(user, 19.99);
    const res = await t.http.get(c.path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.text).toContain(`Top-up #${c.id}`);
    expect(res.text).toContain('$19.99');
    expect(res.text).toContain('<button class="pay" type="submit" name="choice" value="pay">Pay $19.99</button>');
    expect(res.text).toContain('name="choice" value="decline">Decline</button>');
    expect(res.text).not.toContain(c.token);
    expect((await topUpOf(user, c.id)).status).toBe('pending');
  });

  it('Pay settles the top-up as succeeded and credits it once; the link then shows the result and pays nothing again', async () => {
    const user = await t.createUser({ balance: 10 });
    const c = await checkout(user, 50);
    const paid = await choose(c.path, 'pay');
    expect(paid.status).toBe(200);
    expect(paid.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(paid.text).toContain('Payment succeeded: $50.00 was added to the balance.');
    expect(await balanceOf(user)).toBe(60);
    expect(await topUpOf(user, c.id)).toEqual(
      expect.objectContaining({ status: 'succeeded', failure_reason: null, completed_at: expect.stringMatching(/Z$/) }),
    );

    const reopened = await t.http.get(c.path);
    expect(reopened.status).toBe(200);
    expect(reopened.text).toContain('Payment succeeded');
    expect(reopened.text).toContain('This link was used');
    expect(reopened.text).not.toContain('<form');

    for (const choice of ['pay', 'decline']) {
      const again = await choose(c.path, choice);
      expect(again.status).toBe(409);
      expect(again.text).toContain('This link was already used: nothing changed.');
    }
    expect(await balanceOf(user)).toBe(60);
    expect(await credits(user)).toBe(1);
    const s14 = await t.http.post(`/api/sandbox/billing/top-ups/${c.id}/complete`).set(user.auth).send({});
    expect([s14.status, s14.body]).toEqual([409, { message: 'The top-up is already settled.' }]);
  });

  it('Decline settles it as failed (card_declined) and credits nothing', async () => {
    const user = await t.createUser({ balance: 10 });
    const c = await checkout(user, 25);
    const declined = await choose(c.path, 'decline');
    expect(declined.status).toBe(200);
    expect(declined.text).toContain('Payment declined: nothing was charged and the balance is unchanged.');
    expect(await topUpOf(user, c.id)).toEqual(
      expect.objectContaining({ status: 'failed', failure_reason: 'card_declined' }),
    );
    expect(await balanceOf(user)).toBe(10);
  });

  it('a top-up settled through the API shows its result on the page', async () => {
    const user = await t.createUser();
    const c = await checkout(user);
    await t.http.post(`/api/sandbox/billing/top-ups/${c.id}/complete`).set(user.auth).send({ outcome: 'expired' });
    const res = await t.http.get(c.path);
    expect(res.status).toBe(200);
    expect(res.text).toContain('This checkout expired: nothing was charged.');
  });

  it('an unknown, cut or tokenless link is a clear 404 page; a choice that is neither is a 422 page; nothing changes', async () => {
    const user = await t.createUser({ balance: 10 });
    const c = await checkout(user);
    for (const path of [
      `${c.path}x`,
      c.path.slice(0, -1),
      '/api/sandbox/billing/checkout',
      '/api/sandbox/billing/checkout/1',
    ]) {
      const res = await t.http.get(path);
      expect([res.status, res.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']);
      expect(res.text).toContain('This checkout link is not valid');
    }
    for (const path of [`${c.path}x`, c.path.slice(0, -1), '/api/sandbox/billing/checkout/1']) {
      const res = await choose(path, 'pay');
      expect(res.status).toBe(404);
      expect(res.text).toContain('This checkout link is not valid');
    }
    for (const body of [{ choice: 'refund' }, {}]) {
      const res = await t.http.post(c.path).type('form').send(body);
      expect(res.status).toBe(422);
      expect(res.text).toContain('Choose Pay or Decline');
    }
    const json = await t.http.post(c.path).send({ choice: 'steal' });
    expect(json.status).toBe(422);
    expect((await topUpOf(user, c.id)).status).toBe('pending');
    expect(await balanceOf(user)).toBe(10);
  });

  it('the page is the sandbox’s: other sandbox routes still want a Bearer token', async () => {
    const res = await t.http.post('/api/sandbox/billing/top-ups/1/complete').send({});
    expect([res.status, res.body]).toEqual([401, { error: 'Unauthorized' }]);
  });
});

describe('reconciling sandbox checkouts', () => {
  const sweep = () =>
    new ReconcileTopUps(
      t.runtime.container.get(TOKENS.TopUpRepository),
      t.runtime.container.get(TOKENS.BillingGateway),
      t.runtime.container.get(TOKENS.SettleTopUp),
      t.runtime.container.get(TOKENS.Clock),
      { warn: () => undefined },
    ).sweep();
  const age = (id: number, minutes: number) =>
    t.db.dataSource.query(`UPDATE top_ups SET created_at = now() - ($2 || ' minutes')::interval WHERE id = $1`, [
      id,
      String(minutes),
    ]);

  it('an unpaid page waits while it can still be paid and expires after a day; a page paid meanwhile is left alone', async () => {
    const user = await t.createUser({ balance: 0 });
    const open = await checkout(user);
    const stale = await checkout(user);
    const paid = await checkout(user);
    await Promise.all([age(open.id, 30), age(stale.id, 24 * 60 + 1), age(paid.id, 30)]);
    expect((await choose(paid.path, 'pay')).status).toBe(200);
    const decided = await sweep();
    expect(decided).toEqual(expect.objectContaining({ [open.id]: 'wait', [stale.id]: 'settle' }));
    expect(decided).not.toHaveProperty(String(paid.id));
    expect(await topUpOf(user, stale.id)).toEqual(expect.objectContaining({ status: 'expired' }));
    expect(await topUpOf(user, open.id)).toEqual(expect.objectContaining({ status: 'pending' }));
    expect(await credits(user)).toBe(1);
  });
});
