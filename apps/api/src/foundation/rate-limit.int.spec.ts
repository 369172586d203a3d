import { createTestApi, roomInTheMinute, createTestDatabase, TestApi, TestDatabase } from '@voiceplane/test-env';

/** Counters live in PostgreSQL, so two api instances on one database enforce one limit. */
describe('rate limits across instances', () => {
  let db: TestDatabase;
  let a: TestApi;
  let b: TestApi;
  beforeAll(async () => {
    db = await createTestDatabase();
    a = await createTestApi({ db });
    b = await createTestApi({ db });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await db.close();
  });

  /** Fixed windows reset on the minute: start a burst only with room left in the current one. */
  async function awayFromWindowEdge(): Promise<void> {
    await roomInTheMinute(10_000);
  }

  it('reports headers on every authenticated response and answers 429 once the shared window is full', async () => {
    const user = await a.createUser({ plan: { api_rate_limit_per_minute: 5 } });
    await awayFromWindowEdge();
    const seen: Array<{ status: number; remaining: string; limit: string; reset: string }> = [];
    for (let i = 0; i < 5; i++) {
      const app = i % 2 === 0 ? a : b;
      const res = await app.http.get('/api/user/me').set(user.auth);
      seen.push({
        status: res.status,
        remaining: res.headers['x-ratelimit-remaining'],
        limit: res.headers['x-ratelimit-limit'],
        reset: res.headers['x-ratelimit-reset'],
      });
    }
    expect(seen.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    expect(seen.map((s) => s.remaining)).toEqual(['4', '3', '2', '1', '0']);
    expect(seen.every((s) => s.limit === '5')).toBe(true);
    const reset = Number(seen[0].reset);
    expect(reset % 60).toBe(0);
    expect(reset * 1000).toBeGreaterThan(Date.now());

    const refused = await b.http.get('/api/user/me').set(user.auth);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: 'Too Many Attempts.', retry_after: expect.any(Number) });
    expect(refused.headers['retry-after']).toBe(String(refused.body.retry_after));
    expect(refused.body.retry_after).toBeGreaterThanOrEqual(1);
    expect(refused.body.retry_after).toBeLessThanOrEqual(60);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect((await a.http.get('/api/user/me').set(user.auth)).status).toBe(429);
  });

  it('counts each token separately and a plan change applies at once', async () => {
    const user = await a.createUser({ plan: { api_rate_limit_per_minute: 2 } });
    await awayFromWindowEdge();
    await a.http.get('/api/user/me').set(user.auth);
    await b.http.get('/api/user/me').set(user.auth);
    expect((await a.http.get('/api/user/me').set(user.auth)).status).toBe(429);
    const second = await a.http
      .post('/api/user/api-keys')
      .set({ Authorization: `Bearer ${await newKeyViaAdminLogin(a, user.id)}` })
      .send({ name: 'x' });
    expect(second.status).toBe(201);
    await a.http.put(`/api/admin/users/${user.id}/plan`).set(a.admin).send({ api_rate_limit_per_minute: 1000 });
    const after = await b.http.get('/api/user/me').set(user.auth);
    expect(after.status).toBe(200);
    expect(after.headers['x-ratelimit-limit']).toBe('1000');
  });

  it('throttles repeated authentication failures per IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const app = i % 2 === 0 ? a : b;
      statuses.push((await app.http.get('/api/user/me').set('Authorization', `Bearer vp_${'Z'.repeat(40)}`)).status);
    }
    // The window may roll over once during the burst; either way no more than 60 are answered 401 per window.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(60);
    expect(statuses).toContain(429);
  });

  it('admin and health responses carry no rate-limit headers', async () => {
    const res = await a.http.get('/api/admin/users').set(a.admin);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    expect((await a.http.get('/api/health')).headers['x-ratelimit-limit']).toBeUndefined();
  });
});

/** A second token of the same user: a fresh key created directly, bypassing the exhausted one. */
async function newKeyViaAdminLogin(t: TestApi, userId: number): Promise<string> {
  const { hashToken, CryptoIds } = await import('@voiceplane/application');
  const token = new CryptoIds().token('vp_', 40);
  await t.db.dataSource.query(`INSERT INTO api_keys (user_id, name, token_hash) VALUES ($1, 'second', $2)`, [
    userId,
    hashToken(token),
  ]);
  return token;
}
