import { FakeStore } from '@voiceplane/adapter-fakes';
import { err, ok } from '@voiceplane/domain';
import { ApiKey, CredentialRepository } from '../ports/accounts';
import { CurrentAccount } from './current-account';
import { ManageApiKeys } from './manage-api-keys';
import { hashToken } from './secrets';

const START = new Date('2030-05-01T12:00:00.000Z');

/**
 * Credentials have no in-memory fake: this stand-in keeps API keys with their hashes and the
 * sessions revoked, enough for the two use cases here; principal lookups are not theirs.
 */
function credentials() {
  const keys: (ApiKey & { tokenHash: string })[] = [];
  const revoked: { sessionId: number; at: Date }[] = [];
  const repository: CredentialRepository = {
    async createApiKey(userId, name, tokenHash) {
      const key = { id: keys.length + 1, userId, name, tokenHash, lastUsedAt: null, createdAt: START };
      keys.push(key);
      return { id: key.id, userId, name, lastUsedAt: null, createdAt: START };
    },
    async listApiKeys(userId) {
      return keys.filter((k) => k.userId === userId).map(({ tokenHash: _, ...key }) => key);
    },
    async deleteApiKey(userId, id) {
      const at = keys.findIndex((k) => k.userId === userId && k.id === id);
      if (at < 0) return false;
      keys.splice(at, 1);
      return true;
    },
    async createSession() {},
    async revokeSession(sessionId, at) {
      revoked.push({ sessionId, at });
    },
    findPrincipal: () => Promise.reject(new Error('not used here')),
    touchApiKey: () => Promise.reject(new Error('not used here')),
  };
  return { repository, keys, revoked };
}

async function setup() {
  const store = new FakeStore(START);
  const creds = credentials();
  return {
    store, creds,
    account: new CurrentAccount(store.users, creds.repository, store.clock),
    apiKeys: new ManageApiKeys(creds.repository, store.ids),
    user: await store.account(),
  };
}

describe('CurrentAccount', () => {
  it('answers the caller\'s account, and an account gone since its token was checked as account_gone', async () => {
    const { account, user } = await setup();

    expect(await account.me(user.id)).toEqual(ok(user));
    expect(await account.me(user.id + 100)).toEqual(err('account_gone'));
  });

  it('revokes the presenting session at the clock\'s time', async () => {
    const { account, creds } = await setup();

    expect(await account.logout({ tokenKind: 'session', tokenId: 7 })).toEqual(ok(true));
    expect(creds.revoked).toEqual([{ sessionId: 7, at: START }]);
  });

  it('refuses to log out an API key and revokes nothing', async () => {
    const { account, creds } = await setup();

    expect(await account.logout({ tokenKind: 'api_key', tokenId: 7 })).toEqual(err('not_a_session'));
    expect(creds.revoked).toEqual([]);
  });
});

describe('ManageApiKeys', () => {
  it('mints a vp_ token, shows it once and keeps only its hash', async () => {
    const { apiKeys, creds, user } = await setup();

    const issued = await apiKeys.create(user.id, 'CI');

    expect(issued.token).toMatch(/^vp_/);
    expect(issued.key).toEqual(expect.objectContaining({ userId: user.id, name: 'CI' }));
    expect(creds.keys.map((k) => k.tokenHash)).toEqual([hashToken(issued.token)]);
    expect(await apiKeys.list(user.id)).toEqual([issued.key]);
  });

  it('deletes only the caller\'s key; another account\'s is not found and stays', async () => {
    const { apiKeys, store, user } = await setup();
    const stranger = await store.account();
    const theirs = await apiKeys.create(stranger.id, 'Theirs');

    expect(await apiKeys.delete(user.id, theirs.key.id)).toEqual(err('api_key_not_found'));
    expect(await apiKeys.list(stranger.id)).toHaveLength(1);
    expect(await apiKeys.delete(stranger.id, theirs.key.id)).toEqual(ok(true));
    expect(await apiKeys.list(stranger.id)).toEqual([]);
  });
});
