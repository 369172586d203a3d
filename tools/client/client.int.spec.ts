import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createVoiceplaneClient } from '@voiceplane/client';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/** The generated TypeScript client against the composed api over HTTP: typed calls, success and error answers. */
let t: TestApi;
let server: Server;
let base: string;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  user = await t.createUser();
  server = createServer(t.runtime.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

it('reads, creates, and reports the API’s error bodies', async () => {
  const api = createVoiceplaneClient({ baseUrl: `${base}/api`, apiKey: user.token });
  const me = await api.GET('/api/user/me');
  expect(me.response.status).toBe(200);
  expect(me.data).toEqual(expect.objectContaining({ id: user.id, email: user.email }));

  const created = await api.POST('/api/user/assistant', { body: { name: 'Typed', system_prompt: 'Be brief.' } });
  expect(created.response.status).toBe(201);
  const id = (created.data as { data: { id: number } }).data.id;
  const read = await api.GET('/api/user/assistant/{id}', { params: { path: { id: String(id) } } });
  expect((read.data as { data: { name: string } }).data.name).toBe('Typed');

  const invalid = await api.POST('/api/user/assistant', { body: { name: '' } });
  expect(invalid.response.status).toBe(422);
  expect(invalid.error).toEqual(
    expect.objectContaining({
      message: 'The given data was invalid.',
      errors: expect.objectContaining({ name: expect.any(Array) }),
    }),
  );

  const calls = await api.GET('/api/user/calls', { params: { query: { per_page: 5 } } });
  expect(calls.response.status).toBe(200);

  const anonymous = createVoiceplaneClient({ baseUrl: base, apiKey: 'vp_wrong' });
  const refused = await anonymous.GET('/api/user/me');
  expect([refused.response.status, refused.error]).toEqual([401, { error: 'Unauthorized' }]);
});
