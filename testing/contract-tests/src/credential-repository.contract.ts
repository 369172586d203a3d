import { createHash } from 'node:crypto';
import { DEFAULT_PLAN, withPlanChanges } from '@voiceplane/domain';
import { CredentialRepository, UserRepository } from '@voiceplane/application';

export interface CredentialFixture {
  readonly credentials: CredentialRepository;
  /** Where accounts, their plans and their disabled flag live. */
  readonly users: UserRepository;
}

const NOW = new Date('2030-05-01T12:00:00.000Z');
const LATER = new Date('2030-05-01T13:00:00.000Z');

/** The CredentialRepository port's behaviour, run against every implementation. `open` gives a store for each test. */
export function credentialRepositoryContract(name: string, open: () => Promise<CredentialFixture>): void {
  describe(`CredentialRepository contract: ${name}`, () => {
    let f: CredentialFixture;
    let seq = 0;
    /** Token hashes are unique across accounts; each test hashes its own tokens. */
    const hash = (token: string) =>
      createHash('sha256').update(`${expect.getState().currentTestName}:${token}`).digest('hex');
    const PLAN = withPlanChanges(DEFAULT_PLAN, { max_concurrent_calls: 7 });
    const account = async () => {
      const user = await f.users.create({
        name: 'Ada',
        email: `credentials-${Date.now()}-${++seq}@example.test`,
        passwordHash: null,
        plan: PLAN,
      });
      if (!user) throw new Error('e-mail taken');
      return user.id;
    };

    beforeEach(async () => {
      f = await open();
    });

    it('creates, lists newest first and deletes API keys of their owner only', async () => {
      const [user, other] = [await account(), await account()];
      const first = await f.credentials.createApiKey(user, 'CI', hash('k1'));
      const second = await f.credentials.createApiKey(user, 'Deploy', hash('k2'));

      expect(first).toEqual({
        id: expect.any(Number),
        userId: user,
        name: 'CI',
        lastUsedAt: null,
        createdAt: expect.any(Date),
      });
      expect(await f.credentials.listApiKeys(user)).toEqual([second, first]);
      expect(await f.credentials.listApiKeys(other)).toEqual([]);
      expect(await f.credentials.deleteApiKey(other, first.id)).toBe(false);
      expect(await f.credentials.deleteApiKey(user, first.id)).toBe(true);
      expect(await f.credentials.deleteApiKey(user, first.id)).toBe(false);
      expect(await f.credentials.listApiKeys(user)).toEqual([second]);
      expect(await f.credentials.findPrincipal(hash('k1'), NOW)).toBeNull();
    });

    it("finds the principal of an API key by its hash, with the owner's plan and when the key was last used", async () => {
      const user = await account();
      const key = await f.credentials.createApiKey(user, 'CI', hash('key'));

      expect(await f.credentials.findPrincipal(hash('key'), NOW)).toEqual({
        userId: user,
        tokenKind: 'api_key',
        tokenId: key.id,
        plan: PLAN,
        lastUsedAt: null,
        expiresAt: null,
      });
      expect(await f.credentials.findPrincipal('key', NOW)).toBeNull();
      expect(await f.credentials.findPrincipal(hash('other'), NOW)).toBeNull();

      await f.credentials.touchApiKey(key.id, LATER);
      expect((await f.credentials.findPrincipal(hash('key'), NOW))?.lastUsedAt).toEqual(LATER);
      expect((await f.credentials.listApiKeys(user))[0].lastUsedAt).toEqual(LATER);
    });

    it('finds a session until it expires or is revoked', async () => {
      const user = await account();
      await f.credentials.createSession(user, hash('session'), LATER);

      const principal = await f.credentials.findPrincipal(hash('session'), NOW);
      expect(principal).toEqual({
        userId: user,
        tokenKind: 'session',
        tokenId: expect.any(Number),
        plan: PLAN,
        lastUsedAt: null,
        expiresAt: LATER,
      });
      expect(await f.credentials.findPrincipal(hash('session'), LATER)).toBeNull();

      await f.credentials.revokeSession(principal!.tokenId, NOW);
      expect(await f.credentials.findPrincipal(hash('session'), NOW)).toBeNull();
      await f.credentials.revokeSession(principal!.tokenId, LATER);
      expect(await f.credentials.findPrincipal(hash('session'), NOW)).toBeNull();
    });

    it('finds no principal for a disabled account, and finds it again once enabled', async () => {
      const user = await account();
      await f.credentials.createApiKey(user, 'CI', hash('key'));
      await f.credentials.createSession(user, hash('session'), LATER);

      await f.users.setDisabled(user, true);
      expect(await f.credentials.findPrincipal(hash('key'), NOW)).toBeNull();
      expect(await f.credentials.findPrincipal(hash('session'), NOW)).toBeNull();

      await f.users.setDisabled(user, false);
      expect((await f.credentials.findPrincipal(hash('key'), NOW))?.tokenKind).toBe('api_key');
      expect((await f.credentials.findPrincipal(hash('session'), NOW))?.tokenKind).toBe('session');
    });

    it('refuses a token hash already in use, whatever the account', async () => {
      const [user, other] = [await account(), await account()];
      await f.credentials.createApiKey(user, 'CI', hash('key'));
      await f.credentials.createSession(user, hash('session'), LATER);

      await expect(f.credentials.createApiKey(other, 'Copy', hash('key'))).rejects.toThrow();
      await expect(f.credentials.createSession(other, hash('session'), LATER)).rejects.toThrow();
      expect(await f.credentials.listApiKeys(other)).toEqual([]);
    });
  });
}
