import {
  createTestApi,
  roomInTheMinute,
  createTestDatabase,
  eventually,
  TestApi,
  TestDatabase,
} from '@voiceplane/test-env';
import { TOKENS } from '@voiceplane/application';

/**
 * Two api instances on one database: rate limits spent from leased quota and principals served
 * from a cache must still behave as one system (issue: authenticated requests at the speed of
 * the database).
 */
const onRealServer = process.env.DATABASE_URL ? it : it.skip;

describe('the request fast path across instances', () => {
  let db: TestDatabase;
  let a: TestApi;
  let b: TestApi;
  beforeAll(async () => {
    db = await createTestDatabase();
    [a, b] = await Promise.all([createTestApi({ db }), createTestApi({ db })]);
  });
  afterAll(async () => {
    for (const instance of [a, b]) await instance.close();
    await db.close();
  });

  /** A burst must fit in one fixed window: when this minute is nearly over, start in the next. */
  async function withRoomInTheMinute(): Promise<void> {
    await roomInTheMinute(15_000);
  }

  it('admits exactly the limit to 50 connections on one key spread over two instances', async () => {
    const limit = 120;
    const user = await a.createUser({ plan: { api_rate_limit_per_minute: limit } });
    await withRoomInTheMinute();
    const statuses: number[] = [];
    // Each connection keeps to one instance and stops at its first 429: an instance refuses only
    // once its own lease is spent and the shared counter has nothing left, so every admitted
    // request is counted and none is lost to quota stranded on the other instance.
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const app = i < 25 ? a : b;
        for (;;) {
          const res = await app.http.get('/api/user/me').set(user.auth);
          statuses.push(res.status);
          if (res.status !== 200) return;
        }
      }),
    );

    expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50);
  });

  it('hands leased quota back when an instance stops using it', async () => {
    const user = await a.createUser({ plan: { api_rate_limit_per_minute: 1000 } });
    await withRoomInTheMinute();
    await Promise.all(Array.from({ length: 40 }, () => a.http.get('/api/user/me').set(user.auth)));
    const leased = await countedHits(user.id);
    expect(leased).toBeGreaterThanOrEqual(40);

    await a.runtime.container.get(TOKENS.RateLimiter).returnIdle(true);

    expect(await countedHits(user.id)).toBe(40);
  });

  it('refuses a deleted key on the other instance at once', async () => {
    const user = await a.createUser();
    const created = await a.http.post('/api/user/api-keys').set(user.auth).send({ name: 'doomed' });
    const doomed = { Authorization: `Bearer ${created.body.api_key.token}` };
    expect((await b.http.get('/api/user/me').set(doomed)).status).toBe(200);
    expect((await a.http.get('/api/user/me').set(doomed)).status).toBe(200);

    expect((await a.http.delete(`/api/user/api-keys/${created.body.api_key.id}`).set(user.auth)).status).toBe(200);

    expect((await b.http.get('/api/user/me').set(doomed)).status).toBe(401);
    expect((await a.http.get('/api/user/me').set(doomed)).status).toBe(401);
  });

  it('refuses a disabled user on the other instance at once, and serves them again once enabled', async () => {
    const user = await a.createUser();
    expect((await b.http.get('/api/user/me').set(user.auth)).status).toBe(200);

    await a.http.put(`/api/admin/users/${user.id}/status`).set(a.admin).send({ disabled: true });
    expect((await b.http.get('/api/user/me').set(user.auth)).status).toBe(401);

    await b.http.put(`/api/admin/users/${user.id}/status`).set(b.admin).send({ disabled: false });
    expect((await a.http.get('/api/user/me').set(user.auth)).status).toBe(200);
  });

  it('refuses an ended session on the other instance at once', async () => {
    const user = await a.createUser({ password: 'correct horse battery' });
    const login = await a.http.post('/api/user/login').send({ email: user.email, password: 'correct horse battery' });
    const session = { Authorization: `Bearer ${login.body.token}` };
    expect((await b.http.get('/api/user/me').set(session)).status).toBe(200);

    expect((await a.http.post('/api/user/logout').set(session)).status).toBe(200);

    expect((await b.http.get('/api/user/me').set(session)).status).toBe(401);
  });

  // Embedded PGlite delivers no notifications to other sessions, so there nothing is cached.
  onRealServer('serves a known principal from its cache: only the notification makes it forget', async () => {
    const user = await a.createUser();
    expect((await b.http.get('/api/user/me').set(user.auth)).status).toBe(200);
    // A change that bypasses the triggers is invisible to the cache; proves the cache is used.
    await db.dataSource.query(`ALTER TABLE api_keys DISABLE TRIGGER api_keys_principal_notify`);
    try {
      await db.dataSource.query(`DELETE FROM api_keys WHERE user_id = $1`, [user.id]);
      expect((await b.http.get('/api/user/me').set(user.auth)).status).toBe(200);
      await db.dataSource.query(`SELECT pg_notify('vp_principals', $1)`, [String(user.id)]);
      await eventually(
        async () => (await b.http.get('/api/user/me').set(user.auth)).status === 401,
        'the notified instance to forget the principal',
      );
    } finally {
      await db.dataSource.query(`ALTER TABLE api_keys ENABLE TRIGGER api_keys_principal_notify`);
    }
  });

  async function countedHits(userId: number): Promise<number> {
    const rows = await db.dataSource.query(
      `SELECT c.hits FROM rate_limit_counters c JOIN api_keys k ON c.bucket_key = 'general:api_key:' || k.id || ':60' WHERE k.user_id = $1`,
      [userId],
    );
    return Number(rows[0].hits);
  }
});
