import { FakeStore, InMemoryConnectionRepository, InMemoryUnitOfWork } from '@voiceplane/adapter-fakes';
import { SecretCipher } from '../common';
import { ManageConnections } from './manage-connections';

/** Connection writes on the in-memory repository (proven by the connection repository contract). */

async function setup() {
  const store = new FakeStore(new Date('2030-05-01T12:00:00.000Z'));
  const user = await store.account();
  const other = await store.account();
  const connections = new InMemoryConnectionRepository(() => store.clock.now());
  const cipher = new SecretCipher(async () => 'test-key');
  const manage = new ManageConnections(connections, cipher, new InMemoryUnitOfWork());
  const created = async (input: Parameters<ManageConnections['create']>[1]) => {
    const result = await manage.create(user.id, input);
    if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.error)}`);
    return result.value;
  };
  return { store, user, other, connections, cipher, manage, created };
}

describe('ManageConnections', () => {
  it('seals the credential before it is stored and fills the default notes path', async () => {
    const s = await setup();
    const c = await s.created({
      name: 'CRM',
      baseUrl: 'https://crm.example.com',
      authType: 'bearer',
      authValue: 'crm-token',
    });
    expect(c).toEqual(
      expect.objectContaining({
        name: 'CRM',
        kind: 'http_api',
        authType: 'bearer',
        authHeaderName: null,
        status: 'connected',
      }),
    );
    expect(c.notesPath).toEqual(expect.any(String));
    expect(c.sealedAuthValue).not.toContain('crm-token');
    expect(await s.cipher.decrypt(c.sealedAuthValue as string)).toBe('crm-token');
    expect(await s.manage.list(s.user.id)).toEqual([c]);
    expect(await s.manage.list(s.other.id)).toEqual([]);
  });

  it('refuses credentials that do not fit their type, storing nothing', async () => {
    const s = await setup();
    expect(
      await s.manage.create(s.user.id, {
        name: 'CRM',
        baseUrl: 'https://crm.example.com',
        authType: 'basic',
        authValue: 'no-colon',
      }),
    ).toEqual({ ok: false, error: { code: 'invalid_credentials', problems: { auth_value: 'basic_format' } } });
    expect(
      await s.manage.create(s.user.id, {
        name: 'CRM',
        baseUrl: 'https://crm.example.com',
        authType: 'header',
        authValue: 'k',
      }),
    ).toEqual({ ok: false, error: { code: 'invalid_credentials', problems: { auth_header_name: 'required' } } });
    expect(await s.manage.list(s.user.id)).toEqual([]);
  });

  it('keeps a stored secret when only the header name changes, and drops it when the type becomes none', async () => {
    const s = await setup();
    const c = await s.created({
      name: 'CRM',
      baseUrl: 'https://crm.example.com',
      authType: 'header',
      authValue: 'k',
      authHeaderName: 'X-Key',
    });
    const renamed = await s.manage.update(s.user.id, c.id, () => ({ authHeaderName: 'X-Api-Key' }));
    expect(renamed.ok && renamed.value.authHeaderName).toBe('X-Api-Key');
    expect(renamed.ok && (await s.cipher.decrypt(renamed.value.sealedAuthValue as string))).toBe('k');
    const opened = await s.manage.update(s.user.id, c.id, () => ({ authType: 'none' }));
    expect(opened.ok && { sealed: opened.value.sealedAuthValue, header: opened.value.authHeaderName }).toEqual({
      sealed: null,
      header: null,
    });
  });

  it('refuses a credential change that would leave the connection without a value', async () => {
    const s = await setup();
    const c = await s.created({ name: 'CRM', baseUrl: 'https://crm.example.com', authType: 'none' });
    expect(await s.manage.update(s.user.id, c.id, () => ({ authType: 'bearer' }))).toEqual({
      ok: false,
      error: { code: 'invalid_credentials', problems: { auth_value: 'required' } },
    });
  });

  it("reads the changes only once the connection is the caller's, and never touches another account's", async () => {
    const s = await setup();
    const c = await s.created({ name: 'CRM', baseUrl: 'https://crm.example.com', authType: 'none' });
    const changes = jest.fn(() => ({ name: 'Other' }));
    expect(await s.manage.update(s.other.id, c.id, changes)).toEqual({ ok: false, error: 'connection_not_found' });
    expect(changes).not.toHaveBeenCalled();
    expect(await s.manage.delete(s.other.id, c.id)).toEqual({ ok: false, error: 'connection_not_found' });
    expect(await s.manage.delete(s.user.id, c.id)).toEqual({ ok: true, value: true });
    expect(await s.manage.list(s.user.id)).toEqual([]);
  });
});
