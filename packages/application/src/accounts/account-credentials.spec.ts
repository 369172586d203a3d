import { FakeStore, InMemoryCredentialRepository } from '@voiceplane/adapter-fakes';
import { err, ok } from '@voiceplane/domain';
import { CurrentAccount } from './current-account';
import { ManageApiKeys } from './manage-api-keys';
import { hashToken } from './secrets';

const START = new Date('2030-05-01T12:00:00.000Z');

async function setup() {
  const store = new FakeStore(START);
  const creds = new InMemoryCredentialRepository(store.users, store.clock);
  return {
    store,
    creds,
    account: new CurrentAccount(store.users, creds, store.clock, store.uow),
    apiKeys: new ManageApiKeys(creds, store.ids, store.uow),
    user: await store.account(),
  };
}

/** A session of the account, as login leaves it; answers its principal. */
async function signedIn(creds: InMemoryCredentialRepository, userId: number) {
  await creds.createSession(userId, hashToken('session-token'), new Date(START.getTime() + 3_600_000));
  const principal = await creds.findPrincipal(hashToken('session-token'), START);
  if (!principal) throw new Error('no session');
  return principal;
}

describe('CurrentAccount', () => {
  it("answers the caller's account, and an account gone since its token was checked as account_gone", async () => {
    const { account, user } = await setup();

    expect(await account.me(user.id)).toEqual(ok(user));
    expect(await account.me(user.id + 100)).toEqual(err('account_gone'));
  });

  it("revokes the presenting session at the clock's time", async () => {
    const { account, creds, user } = await setup();
    const session = await signedIn(creds, user.id);

    expect(await account.logout({ tokenKind: 'session', tokenId: session.tokenId })).toEqual(ok(true));
    expect(creds.revokedAt(session.tokenId)).toEqual(START);
    expect(await creds.findPrincipal(hashToken('session-token'), START)).toBeNull();
  });

  it('refuses to log out an API key and revokes nothing', async () => {
    const { account, creds, user } = await setup();
    const session = await signedIn(creds, user.id);

    expect(await account.logout({ tokenKind: 'api_key', tokenId: session.tokenId })).toEqual(err('not_a_session'));
    expect(creds.revokedAt(session.tokenId)).toBeNull();
  });
});

describe('ManageApiKeys', () => {
  it('mints a vp_ token, shows it once and keeps only its hash', async () => {
    const { apiKeys, creds, user } = await setup();

    const issued = await apiKeys.create(user.id, 'CI');

    expect(issued.token).toMatch(/^vp_/);
    expect(issued.key).toEqual(expect.objectContaining({ userId: user.id, name: 'CI' }));
    expect(await creds.findPrincipal(hashToken(issued.token), START)).toEqual(
      expect.objectContaining({ tokenKind: 'api_key', tokenId: issued.key.id }),
    );
    expect(await creds.findPrincipal(issued.token, START)).toBeNull();
    expect(await apiKeys.list(user.id)).toEqual([issued.key]);
  });

  it("deletes only the caller's key; another account's is not found and stays", async () => {
    const { apiKeys, store, user } = await setup();
    const stranger = await store.account();
    const theirs = await apiKeys.create(stranger.id, 'Theirs');

    expect(await apiKeys.delete(user.id, theirs.key.id)).toEqual(err('api_key_not_found'));
    expect(await apiKeys.list(stranger.id)).toHaveLength(1);
    expect(await apiKeys.delete(stranger.id, theirs.key.id)).toEqual(ok(true));
    expect(await apiKeys.list(stranger.id)).toEqual([]);
  });
});
