import { AccountEvent } from '@voiceplane/domain';
import { Database, PostgresAccountEventStore } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { insertUser } from './postgres-fixtures';

/**
 * The event stream's shared store on a PostgreSQL server and on the embedded PGlite: leases taken
 * atomically up to the limit and lapsing when not renewed, and the backlog kept per account and
 * trimmed by age and count.
 */
const server = useTestDatabase();
const embedded = useTestDatabase({ embedded: true });

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
let n = 0;
const event = (userId: number, at: number, body = 'hi'): AccountEvent => ({
  id: `evt_store_${++n}_${userId}`,
  type: 'message.received',
  userId,
  at,
  data: { body },
});

describe.each([
  ['PostgreSQL', server],
  ['PGlite', embedded],
])('the account event store on %s', (_name, database: () => Database) => {
  const store = () => new PostgresAccountEventStore(database());
  const lease = (userId: number, id: string, instance = 'inst-a') => ({ id, userId, instance });

  it('grants at most the limit of leases to concurrent openers, each account apart', async () => {
    const [user, other] = [await insertUser(database()), await insertUser(database())];
    const until = new Date(T0 + 45_000);
    const granted = await Promise.all(
      Array.from({ length: 8 }, (_, i) => store().takeLease(lease(user, `esl_c${i}_${user}`), 5, new Date(T0), until)),
    );
    expect(granted.filter(Boolean)).toHaveLength(5);
    expect(await store().takeLease(lease(other, `esl_o_${other}`), 5, new Date(T0), until)).toBe(true);
    await store().releaseLease(`esl_c${granted.indexOf(true)}_${user}`);
    expect(await store().takeLease(lease(user, `esl_again_${user}`), 5, new Date(T0), until)).toBe(true);
  });

  it('lets a lease lapse when it is not renewed, and does not bring it back', async () => {
    const user = await insertUser(database());
    for (let i = 0; i < 2; i++) {
      expect(
        await store().takeLease(
          lease(user, `esl_l${i}_${user}`, `dead-${user}`),
          2,
          new Date(T0),
          new Date(T0 + 1_000),
        ),
      ).toBe(true);
    }
    expect(await store().takeLease(lease(user, `esl_x_${user}`), 2, new Date(T0 + 500), new Date(T0 + 2_000))).toBe(
      false,
    );
    // Past the expiry the places are free, and the dead instance's late renewal finds nothing to renew.
    expect(await store().takeLease(lease(user, `esl_y_${user}`), 2, new Date(T0 + 1_000), new Date(T0 + 9_000))).toBe(
      true,
    );
    expect(await store().renewLeases(`dead-${user}`, new Date(T0 + 1_500), new Date(T0 + 9_000))).toEqual([]);
    expect(await store().renewLeases('inst-a', new Date(T0 + 1_500), new Date(T0 + 9_000))).toContain(`esl_y_${user}`);
  });

  it('replays what followed an id of the account, once, and nothing for an id it does not hold', async () => {
    const [user, other] = [await insertUser(database()), await insertUser(database())];
    const [a, b, c] = [event(user, T0, 'a'), event(user, T0 + 1, 'b'), event(user, T0 + 2, 'c')];
    for (const e of [a, b, b, c, event(other, T0 + 3)]) await store().append(e);
    expect((await store().after(user, a.id, 200))?.map((e) => e.data.body)).toEqual(['b', 'c']);
    expect(await store().after(user, c.id, 200)).toEqual([]);
    expect(await store().after(other, a.id, 200)).toBeNull();
    expect(await store().after(user, 'evt_never', 200)).toBeNull();
    // More followed than a reader may be sent: it must reload instead.
    expect(await store().after(user, a.id, 1)).toBeNull();
  });

  it('trims by age and keeps the newest events of each account', async () => {
    const [user, other] = [await insertUser(database()), await insertUser(database())];
    const old = event(user, T0 - 20 * 60_000);
    const recent = Array.from({ length: 4 }, (_, i) => event(user, T0 + i));
    const theirs = event(other, T0);
    for (const e of [old, ...recent, theirs]) await store().append(e);
    await store().trim(new Date(T0 - 15 * 60_000), 3);
    const ids = (
      await database().query<{ id: string }>(`SELECT id FROM account_events WHERE user_id IN ($1, $2) ORDER BY seq`, [
        user,
        other,
      ])
    ).map((r) => r.id);
    expect(ids).toEqual([...recent.slice(1).map((e) => e.id), theirs.id]);
  });
});
