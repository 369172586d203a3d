import { createTestApi, TestApi } from '@voiceplane/test-env';
import { loadConfig } from '@voiceplane/composition';
import { issueDemoApiKey, seedDemoAccount } from './demo-account';

/** The demo account on any database (embedded or DATABASE_URL): seeded once, a fresh key on request. */
describe('demo account', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await createTestApi({ startBackground: false });
  });
  afterAll(async () => {
    await t.close();
  });

  const me = async (token: string) => {
    const res = await t.http.get('/api/user/me').set({ Authorization: `Bearer ${token}` });
    return { status: res.status, email: res.body.email };
  };

  it('issues no key while there is no demo account', async () => {
    expect(await issueDemoApiKey(t.runtime)).toBeNull();
  });

  it('is seeded only on an empty database; a fresh key works beside the first one', async () => {
    const seeded = await seedDemoAccount(t.runtime, loadConfig({}));
    expect(seeded).toEqual({
      email: 'demo@voiceplane.local',
      apiKey: expect.stringMatching(/^vp_[A-Za-z0-9]{40}$/),
      generatedPassword: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
    });
    // The console's sign-in takes the password printed with the key.
    const login = await t.http
      .post('/api/user/login')
      .send({ email: 'demo@voiceplane.local', password: seeded!.generatedPassword });
    expect(login.status).toBe(200);
    expect(await seedDemoAccount(t.runtime, loadConfig({}))).toBeNull();

    const fresh = await issueDemoApiKey(t.runtime);
    expect(fresh).toEqual({ email: 'demo@voiceplane.local', apiKey: expect.stringMatching(/^vp_[A-Za-z0-9]{40}$/) });
    expect(fresh!.apiKey).not.toBe(seeded!.apiKey);
    for (const token of [fresh!.apiKey, seeded!.apiKey])
      expect(await me(token)).toEqual({ status: 200, email: 'demo@voiceplane.local' });
    const keys = await t.http.get('/api/user/api-keys').set({ Authorization: `Bearer ${fresh!.apiKey}` });
    expect(keys.body.api_keys.map((k: { name: string }) => k.name)).toEqual(['new-demo-key', 'default']);
  });
});
