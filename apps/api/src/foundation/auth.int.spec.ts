import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

const UNAUTHORIZED = { error: 'Unauthorized' };

describe('authentication, API keys and sessions', () => {
  let t: TestApi;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApi();
    alice = await t.createUser({ password: 'correct horse battery' });
    bob = await t.createUser();
  });
  afterAll(async () => t.close());

  const expect401 = (res: { status: number; body: unknown; headers: Record<string, string> }) => {
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    expect(res.headers['www-authenticate']).toBe('Bearer');
  };

  describe('every auth failure is 401 {error:"Unauthorized"}', () => {
    it.each([
      ['no header', undefined],
      ['wrong scheme', 'Basic dXNlcjpwYXNz'],
      ['empty bearer', 'Bearer '],
      ['malformed token', 'Bearer not-a-token'],
      ['unknown well-formed key', `Bearer vp_${'A'.repeat(40)}`],
      ['unknown well-formed session', `Bearer vps_${'B'.repeat(40)}`],
    ])('%s', async (_name, header) => {
      const req = t.http.get('/api/user/me');
      if (header !== undefined) req.set('Authorization', header);
      expect401(await req);
    });

    it('accepts any case of the scheme and extra spaces', async () => {
      const res = await t.http.get('/api/user/me').set('Authorization', `  bEaReR   ${alice.token}  `);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(alice.id);
    });

    it('rejects a disabled user and accepts again once re-enabled', async () => {
      const carol = await t.createUser();
      expect(
        (await t.http.put(`/api/admin/users/${carol.id}/status`).set(t.admin).send({ disabled: true })).status,
      ).toBe(200);
      expect401(await t.http.get('/api/user/me').set(carol.auth));
      expect(
        (await t.http.put(`/api/admin/users/${carol.id}/status`).set(t.admin).send({ disabled: false })).status,
      ).toBe(200);
      expect((await t.http.get('/api/user/me').set(carol.auth)).status).toBe(200);
    });

    it('rejects admin routes without the admin token, and user tokens there', async () => {
      expect401(await t.http.get('/api/admin/users'));
      expect401(await t.http.get('/api/admin/users').set(alice.auth));
    });
  });

  describe('API keys', () => {
    it('creates a key shown once, lists keys without tokens, newest first', async () => {
      const created = await t.http.post('/api/user/api-keys').set(alice.auth).send({ name: '  ci  ' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        message: 'API key created successfully.',
        api_key: {
          id: expect.any(Number),
          name: 'ci',
          token: expect.stringMatching(/^vp_[A-Za-z0-9]{40}$/),
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
      });
      const viaNewKey = await t.http.get('/api/user/me').set('Authorization', `Bearer ${created.body.api_key.token}`);
      expect(viaNewKey.body.id).toBe(alice.id);
      const list = await t.http.get('/api/user/api-keys').set(alice.auth);
      expect(list.status).toBe(200);
      expect(list.body.api_keys[0]).toEqual({
        id: created.body.api_key.id,
        name: 'ci',
        last_used_at: expect.any(String),
        created_at: created.body.api_key.created_at,
      });
      expect(JSON.stringify(list.body)).not.toContain(created.body.api_key.token);
      const ids = list.body.api_keys.map((k: { id: number }) => k.id);
      expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    });

    it('validates the name', async () => {
      for (const body of [{}, { name: '' }, { name: '   ' }, { name: null }]) {
        const res = await t.http.post('/api/user/api-keys').set(alice.auth).send(body);
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          message: 'The given data was invalid.',
          errors: { name: ['The name field is required.'] },
        });
      }
      const long = await t.http
        .post('/api/user/api-keys')
        .set(alice.auth)
        .send({ name: 'x'.repeat(256) });
      expect(long.body.errors).toEqual({ name: ['The name may not be greater than 255 characters.'] });
      const typed = await t.http.post('/api/user/api-keys').set(alice.auth).send({ name: 5 });
      expect(typed.body.errors).toEqual({ name: ['The name must be a string.'] });
    });

    it('deleting a key revokes it at once, even the key making the request', async () => {
      const created = await t.http.post('/api/user/api-keys').set(alice.auth).send({ name: 'short-lived' });
      const auth = { Authorization: `Bearer ${created.body.api_key.token}` };
      const del = await t.http.delete(`/api/user/api-keys/${created.body.api_key.id}`).set(auth);
      expect(del.status).toBe(200);
      expect(del.body).toEqual({ message: 'API key deleted successfully.' });
      expect401(await t.http.get('/api/user/me').set(auth));
      expect401(await t.http.get('/api/user/api-keys').set(auth));
    });

    it("another account's key is not found and stays usable", async () => {
      const bobKey = await t.http.post('/api/user/api-keys').set(bob.auth).send({ name: 'bob' });
      const res = await t.http.delete(`/api/user/api-keys/${bobKey.body.api_key.id}`).set(alice.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'API key not found.' });
      const still = await t.http.get('/api/user/me').set('Authorization', `Bearer ${bobKey.body.api_key.token}`);
      expect(still.body.id).toBe(bob.id);
    });

    it.each(['999999', 'abc', '0', '-1', '1.5'])('unknown or malformed id %s → 404', async (id) => {
      const res = await t.http.delete(`/api/user/api-keys/${id}`).set(alice.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'API key not found.' });
    });
  });

  describe('login, sessions and logout', () => {
    it('logs in with e-mail in any case and the session token works', async () => {
      const res = await t.http
        .post('/api/user/login')
        .send({ email: alice.email.toUpperCase(), password: 'correct horse battery' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: 'Login successful.',
        token: expect.stringMatching(/^vps_[A-Za-z0-9]{40}$/),
        token_type: 'Bearer',
        expires_at: expect.any(String),
        user: { id: alice.id, name: expect.any(String), email: alice.email },
      });
      const hours = (Date.parse(res.body.expires_at) - Date.now()) / 3600_000;
      expect(hours).toBeGreaterThan(23.9);
      expect(hours).toBeLessThanOrEqual(24);
      expect((await t.http.get('/api/user/me').set('Authorization', `Bearer ${res.body.token}`)).body.id).toBe(
        alice.id,
      );
    });

    it.each([
      ['wrong password', () => ({ email: alice.email, password: 'nope' })],
      ['unknown e-mail', () => ({ email: 'nobody@example.test', password: 'whatever' })],
      ['user without password', () => ({ email: bob.email, password: 'whatever' })],
    ])('%s → 401 Invalid credentials', async (_n, body) => {
      const res = await t.http.post('/api/user/login').send(body());
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Invalid credentials.' });
    });

    it('validates the login body', async () => {
      const res = await t.http.post('/api/user/login').send({ email: 'not-an-email' });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        message: 'The given data was invalid.',
        errors: { email: ['The email must be a valid email address.'], password: ['The password field is required.'] },
      });
    });

    it('logout revokes the session; API keys cannot log out', async () => {
      const login = await t.http
        .post('/api/user/login')
        .send({ email: alice.email, password: 'correct horse battery' });
      const auth = { Authorization: `Bearer ${login.body.token}` };
      const out = await t.http.post('/api/user/logout').set(auth);
      expect(out.status).toBe(200);
      expect(out.body).toEqual({ message: 'Logged out successfully.' });
      expect401(await t.http.get('/api/user/me').set(auth));
      const withKey = await t.http.post('/api/user/logout').set(alice.auth);
      expect(withKey.status).toBe(400);
      expect(withKey.body).toEqual({ message: 'Only session tokens can be logged out.' });
    });

    it('an expired session is refused', async () => {
      const login = await t.http
        .post('/api/user/login')
        .send({ email: alice.email, password: 'correct horse battery' });
      const auth = { Authorization: `Bearer ${login.body.token}` };
      expect((await t.http.get('/api/user/me').set(auth)).status).toBe(200);
      await t.db.dataSource.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [
        alice.id,
      ]);
      expect401(await t.http.get('/api/user/me').set(auth));
    });

    it('throttles login attempts per e-mail and IP (10/min)', async () => {
      const email = `throttle${Date.now()}@example.test`;
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++)
        statuses.push((await t.http.post('/api/user/login').send({ email, password: 'x' })).status);
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      const last = await t.http.post('/api/user/login').send({ email, password: 'x' });
      expect(last.status).toBe(429);
      expect(last.body).toEqual({ message: 'Too Many Attempts.', retry_after: expect.any(Number) });
      expect(last.headers['retry-after']).toBe(String(last.body.retry_after));
    });
  });

  it('GET /me returns the account with its plan', async () => {
    const res = await t.http.get('/api/user/me').set(bob.auth);
    expect(res.body).toEqual({
      id: bob.id,
      name: expect.any(String),
      email: bob.email,
      total_balance: 25,
      plan: {
        name: 'standard',
        max_mid_call_tools: 10,
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
  });

  it('records last_used_at on use', async () => {
    const list = await t.http.get('/api/user/api-keys').set(bob.auth);
    const key = list.body.api_keys.find((k: { name: string }) => k.name === 'default');
    expect(key.last_used_at).not.toBeNull();
  });
});
