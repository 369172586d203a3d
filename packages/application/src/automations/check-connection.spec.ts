import { FakeStore, InMemoryConnectionRepository, ScriptedHttpClient } from '@voiceplane/adapter-fakes';
import { SecretCipher } from '../common';
import { ToolGateway } from '../tools';
import { CheckConnection } from './check-connection';

/** The connection check's decisions on the in-memory repository (proven by the connection repository contract). */

async function setup() {
  const store = new FakeStore(new Date('2030-05-01T12:00:00.000Z'));
  const user = await store.account();
  const connections = new InMemoryConnectionRepository(() => store.clock.now());
  const http = new ScriptedHttpClient();
  const cipher = new SecretCipher(async () => 'test-key');
  const check = new CheckConnection(
    connections,
    http,
    new ToolGateway(http, store.secrets, store.clock),
    cipher,
    store.clock,
    store.ids,
    store.uow,
  );
  const connection = await connections.create(user.id, {
    name: 'Acme CRM',
    kind: 'http_api',
    baseUrl: 'https://crm.example.com/api',
    notesPath: '/notes',
    authType: 'bearer',
    authHeaderName: null,
    sealedAuthValue: await cipher.encrypt('crm-token'),
  });
  return { store, user, http, check, connection };
}

it('calls the base URL with the opened credentials and records the answer as connected', async () => {
  const { store, user, http, check, connection } = await setup();
  http.answer({ statusCode: 200 });
  expect(await check.execute(user.id, connection.id)).toEqual({
    ...connection,
    status: 'connected',
    lastError: null,
    lastCheckedAt: store.clock.now(),
    updatedAt: store.clock.now(),
  });
  expect(http.requests).toEqual([
    expect.objectContaining({
      method: 'GET',
      url: 'https://crm.example.com/api',
      headers: [{ name: 'Authorization', value: 'Bearer crm-token' }],
    }),
  ]);
});

it('records refused credentials and an unreachable CRM as broken, with the reason', async () => {
  const { user, http, check, connection } = await setup();
  http.answer({ statusCode: 401 });
  expect(await check.execute(user.id, connection.id)).toEqual(
    expect.objectContaining({ status: 'broken', lastError: 'The CRM refused the credentials (HTTP 401).' }),
  );
  http.answer({ statusCode: null, error: 'timeout' });
  expect(await check.execute(user.id, connection.id)).toEqual(
    expect.objectContaining({ status: 'broken', lastError: 'The CRM did not answer within 10 seconds.' }),
  );
});

it("never checks another account's connection", async () => {
  const { user, http, check, connection } = await setup();
  expect(await check.execute(user.id + 1, connection.id)).toBeNull();
  expect(http.requests).toEqual([]);
});
