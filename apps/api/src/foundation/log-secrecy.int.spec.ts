import { PassThrough } from 'node:stream';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/**
 * A failing write is logged without what it was writing (issue: hardening). The database is made
 * to refuse every new row, so the statements fail with their parameters attached to the error.
 */
let t: TestApi;
let u: TestUser;
let log = '';

beforeAll(async () => {
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  t = await createTestApi({ logTo: sink, startBackground: false });
  u = await t.createUser();
});
afterAll(async () => t.close());

it('logs a failed tool create without the header value it tried to store', async () => {
  const secret = 'Bearer sk_live_never_in_logs_4f9a';
  await t.db.dataSource.query(`ALTER TABLE tools ADD CONSTRAINT log_secrecy_refuse_all CHECK (false) NOT VALID`);
  try {
    const res = await t.http
      .post('/api/user/tools')
      .set(u.auth)
      .send({
        name: 'lookup',
        description: 'Looks an order up',
        endpoint: 'https://api.example.com/orders',
        method: 'GET',
        headers: [{ name: 'Authorization', value: secret }],
      });
    expect(res.status).toBe(500);
  } finally {
    await t.db.dataSource.query(`ALTER TABLE tools DROP CONSTRAINT log_secrecy_refuse_all`);
  }
  expect(log).toContain('log_secrecy_refuse_all');
  expect(log).not.toContain('sk_live_never_in_logs_4f9a');
});

it('logs a failed account create without the password hash it tried to store', async () => {
  await t.db.dataSource.query(`ALTER TABLE users ADD CONSTRAINT log_secrecy_refuse_users CHECK (false) NOT VALID`);
  try {
    const res = await t.http
      .post('/api/admin/users')
      .set(t.admin)
      .send({ name: 'Ann', email: 'ann.logs@example.test', password: 'correct horse battery' });
    expect(res.status).toBe(500);
  } finally {
    await t.db.dataSource.query(`ALTER TABLE users DROP CONSTRAINT log_secrecy_refuse_users`);
  }
  expect(log).toContain('log_secrecy_refuse_users');
  expect(log).not.toMatch(/scrypt\$|ann\.logs@example\.test/);
});
