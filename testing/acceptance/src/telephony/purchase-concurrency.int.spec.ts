import { SandboxNumberInventory } from '@voiceplane/adapter-sandbox';
import { TOKENS } from '@voiceplane/application';
import { NUMBER_COUNTRIES } from '@voiceplane/domain';
import { createTestApi, TestApi } from '@voiceplane/test-env';

/**
 * Many purchases by one account at once (issue: hardening). Each takes the balance lock and inserts
 * a number row; taken in the wrong order, PostgreSQL found deadlocks and answered 500s for most.
 */
let t: TestApi;
beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
});
afterAll(async () => t.close());

it('50 concurrent purchases against a balance of 5.00 end in 201 or 402, never 500, and the ledger matches the balance', async () => {
  const user = await t.createUser({ balance: 5 });
  const inventory = t.runtime.container.get<SandboxNumberInventory>(TOKENS.NumberInventory);
  const offers = NUMBER_COUNTRIES.flatMap((c) => inventory.numbersOf(c))
    .filter((n) => n.addressRequirements === 'none')
    .slice(0, 50);
  expect(offers).toHaveLength(50);

  const answers = await Promise.all(
    offers.map((o) =>
      t.http.post('/api/user/phone-numbers/purchase').set(user.auth).send({ phone_number: o.phoneNumber }),
    ),
  );

  const statuses = answers.map((a) => a.status);
  expect(statuses.filter((s) => s !== 201 && s !== 402)).toEqual([]);
  const bought = offers.filter((_, i) => statuses[i] === 201);
  const refused = offers.filter((_, i) => statuses[i] === 402);
  expect(bought.length).toBeGreaterThan(0);

  const [{ balance }] = await t.db.dataSource.query(`SELECT balance FROM users WHERE id = $1`, [user.id]);
  const spent = bought.reduce((sum, o) => sum + Math.round(o.price * 100), 0);
  expect(Math.round(Number(balance) * 100)).toBe(500 - spent);
  expect(Number(balance)).toBeGreaterThanOrEqual(0);
  const [{ total }] = await t.db.dataSource.query(
    `SELECT COALESCE(SUM(amount), 0) AS total FROM ledger_entries WHERE user_id = $1`,
    [user.id],
  );
  expect(Math.round(Number(total) * 100)).toBe(Math.round(Number(balance) * 100));
  // The balance only went down, so a refusal was right only if even the final balance cannot pay.
  for (const o of refused) expect(Number(balance)).toBeLessThan(o.price);
  const owned = await t.db.dataSource.query(`SELECT count(*)::int AS n FROM phone_numbers WHERE user_id = $1`, [
    user.id,
  ]);
  expect(owned[0].n).toBe(bought.length);
});
