import { Writable } from 'node:stream';
import pino from 'pino';
import supertest from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { InProcessMessageBus } from '@voiceplane/adapter-local-bus';
import { SandboxSipProvisioner } from '@voiceplane/adapter-sandbox';
import { ProvisioningCleanup, TOKENS } from '@voiceplane/application';
import { composeApi, loadConfig, type ApiRuntime } from '@voiceplane/composition';
import { createTestDatabase, TestDatabase } from '@voiceplane/test-env';

/**
 * `sip_password` is write-only: it never appears in a response, in a log line at
 * the most verbose level (failures included), or in the database in plain text.
 */

const PASSWORDS = ['first-Secret-0001', 'second-Secret-0002', 'third-Secret-0003'];

let db: TestDatabase;
let runtime: ApiRuntime;
let http: TestAgent;
let auth: { Authorization: string };
let userId: number;
const log: string[] = [];
const bodies: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  const sink = new Writable({
    write(chunk, _enc, done) {
      log.push(String(chunk));
      done();
    },
  });
  const logger = pino({ level: 'trace' }, sink);
  runtime = await composeApi(
    { ...loadConfig({}), allowPrivateTargets: true },
    { dataSource: db.dataSource, logger, bus: new InProcessMessageBus() },
  );
  http = supertest(runtime.app);
  const created = await http
    .post('/api/admin/users')
    .set({ Authorization: `Bearer ${runtime.adminToken}` })
    .send({ name: 'Secretive', email: 'secret@example.test', balance: 10 });
  auth = { Authorization: `Bearer ${created.body.api_key.token}` };
  userId = created.body.user.id;
});
afterAll(async () => {
  await db.close();
});

async function send(request: supertest.Test): Promise<supertest.Response> {
  const res = await request;
  bodies.push(res.text);
  return res;
}

it('never echoes, logs or stores a SIP password in plain text, even when provisioning fails', async () => {
  const sip = runtime.container.get<SandboxSipProvisioner>(TOKENS.SipProvisioner);
  const created = await send(
    http.post('/api/user/phone-numbers/sip-trunks').set(auth).send({
      phone_number: '+4930123',
      sip_username: 'user-1',
      sip_password: PASSWORDS[0],
      sip_address: 'sip.carrier.example',
    }),
  );
  expect(created.status).toBe(201);
  const id = created.body.data.id;

  await send(
    http.put(`/api/user/phone-numbers/sip-trunks/${id}?dry_run=true`).set(auth).send({ sip_password: PASSWORDS[1] }),
  );
  sip.faults.arm({ accountId: userId, count: 1, after: 1 });
  expect(
    (await send(http.put(`/api/user/phone-numbers/sip-trunks/${id}`).set(auth).send({ sip_password: PASSWORDS[1] })))
      .status,
  ).toBe(500);
  await db.dataSource.query(
    `CREATE FUNCTION vp_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by test'; END $$`,
  );
  await db.dataSource.query(
    `CREATE TRIGGER vp_refuse BEFORE UPDATE ON sip_trunks FOR EACH ROW EXECUTE FUNCTION vp_refuse()`,
  );
  expect(
    (await send(http.put(`/api/user/phone-numbers/sip-trunks/${id}`).set(auth).send({ sip_password: PASSWORDS[1] })))
      .status,
  ).toBe(500);
  await db.dataSource.query(`DROP TRIGGER vp_refuse ON sip_trunks`);
  // Old-trunk deletion fails (step 4) and is retried by the job: both paths log.
  sip.faults.arm({ accountId: userId, count: 1, after: 3 });
  expect(
    (await send(http.put(`/api/user/phone-numbers/sip-trunks/${id}`).set(auth).send({ sip_password: PASSWORDS[2] })))
      .status,
  ).toBe(200);
  await db.dataSource.query(`UPDATE sip_provisioning_cleanup SET next_attempt_at = now() - interval '1 second'`);
  await runtime.container.get(ProvisioningCleanup).runDue();
  await send(http.get(`/api/user/phone-numbers/sip-trunks/${id}`).set(auth));
  await send(http.get('/api/user/phone-numbers/sip-trunks').set(auth));
  await send(http.get('/api/user/phone-numbers').set(auth));
  await send(http.put(`/api/user/phone-numbers/sip-trunks/${id}`).set(auth).send({ sip_password: 'x' }));
  await send(
    http.post('/api/user/phone-numbers/sip-trunks').set(auth).send({
      phone_number: '+4930123',
      sip_username: 'user-1',
      sip_password: PASSWORDS[2],
      sip_address: 'sip.carrier.example',
    }),
  );

  // The trunk really uses the last password, and the failures really were logged.
  expect(
    sip.trunk((await http.get(`/api/user/phone-numbers/sip-trunks/${id}`).set(auth)).body.data.inbound_trunk_id)
      ?.password,
  ).toBe(PASSWORDS[2]);
  expect(log.join('')).toContain('SIP trunk update failed; provider changes undone');
  expect(log.join('')).toContain('SIP provisioning clean-up failed; it will be retried');

  const stored = JSON.stringify(await db.dataSource.query(`SELECT * FROM sip_trunks`));
  for (const password of PASSWORDS) {
    expect(bodies.join('\n')).not.toContain(password);
    expect(log.join('')).not.toContain(password);
    expect(stored).not.toContain(password);
  }
  // Without SECRETS_KEY the key was generated once and kept for the next start.
  const keys = await db.dataSource.query(`SELECT value FROM system_settings WHERE key = 'secrets_key'`);
  expect(keys).toEqual([{ value: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/) }]);
  // A validation message may name the field; no body carries a value for it.
  expect(bodies.join('\n')).not.toMatch(/"sip_password":"/);
});
