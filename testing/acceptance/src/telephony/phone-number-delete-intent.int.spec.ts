import { SandboxSipProvisioner } from '@voiceplane/adapter-sandbox';
import { PhoneNumberRepository, ProvisioningCleanup, TOKENS } from '@voiceplane/application';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/**
 * DELETE /api/user/phone-numbers/{id} calls the provider with no transaction open: its intent is a
 * `delete_number` clean-up task, and a process that dies after the provider's answer leaves a task
 * the clean-up job finishes exactly once.
 */

let t: TestApi;
let owner: TestUser;
let sip: SandboxSipProvisioner;
let numbers: PhoneNumberRepository;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser();
  sip = t.runtime.container.get<SandboxSipProvisioner>(TOKENS.SipProvisioner);
  numbers = t.runtime.container.get(TOKENS.PhoneNumberRepository);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => jest.restoreAllMocks());

let counter = 0;
async function createTrunk(): Promise<{ id: number; inbound_trunk_id: string; outbound_trunk_id: string }> {
  counter += 1;
  const res = await t.http
    .post('/api/user/phone-numbers/sip-trunks')
    .set(owner.auth)
    .send({
      phone_number: `+4940${2000 + counter}`,
      nickname: 'Hamburg',
      sip_username: 'intent',
      sip_password: 'p@ss-word 1',
      sip_address: 'sip.carrier.example',
      country_code: 'de',
    });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const pendingIntents = (): Promise<{ resource_id: string }[]> =>
  t.db.dataSource.query(`SELECT resource_id FROM sip_provisioning_cleanup WHERE action = 'delete_number'`);

it('no transaction is open while the provider deletes the route, and nothing is left behind', async () => {
  const trunk = await createTrunk();
  const seen: { idleInTransaction: number; intents: string[] }[] = [];
  const deleteRoute = sip.deleteInboundRoute.bind(sip);
  jest.spyOn(sip, 'deleteInboundRoute').mockImplementation(async (routeId) => {
    const [activity] = await t.db.dataSource.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
    );
    seen.push({ idleInTransaction: activity.n, intents: (await pendingIntents()).map((r) => r.resource_id) });
    return deleteRoute(routeId);
  });
  const res = await t.http.delete(`/api/user/phone-numbers/${trunk.id}`).set(owner.auth);
  expect([res.status, res.body]).toEqual([200, { message: 'Phone number deleted successfully.' }]);
  expect(seen).toEqual([{ idleInTransaction: 0, intents: [`${owner.id}:${trunk.id}`] }]);
  expect(await pendingIntents()).toEqual([]);
  expect(sip.trunk(trunk.inbound_trunk_id)).toBeUndefined();
});

it('a provider refusal drops the intent and keeps the number', async () => {
  const trunk = await createTrunk();
  await t.http.post('/api/sandbox/faults').set(owner.auth).send({ kind: 'sip_provisioning', target_id: trunk.id });
  const res = await t.http.delete(`/api/user/phone-numbers/${trunk.id}`).set(owner.auth);
  expect(res.status).toBe(500);
  expect(await pendingIntents()).toEqual([]);
  expect(await numbers.find(owner.id, trunk.id)).not.toBeNull();
});

it('a process that dies after the provider answered leaves an intent the clean-up job settles exactly once', async () => {
  const trunk = await createTrunk();
  // The settle transaction never commits: as if the process died right after the provider's answer.
  jest.spyOn(numbers, 'delete').mockRejectedValueOnce(new Error('process died'));
  const res = await t.http.delete(`/api/user/phone-numbers/${trunk.id}`).set(owner.auth);
  expect(res.status).not.toBe(200);
  expect(sip.routes(owner.id).find((r) => r.owner.phoneNumberId === trunk.id)).toBeUndefined();
  expect(await numbers.find(owner.id, trunk.id)).not.toBeNull();
  expect(await pendingIntents()).toEqual([{ resource_id: `${owner.id}:${trunk.id}` }]);

  // The request's lease runs out; the job repeats the provider call (a route already gone is fine) and settles.
  await t.db.dataSource.query(`UPDATE sip_provisioning_cleanup SET next_attempt_at = now() - interval '1 second'`);
  const cleanup = t.runtime.container.get(ProvisioningCleanup);
  await cleanup.runDue();
  expect(await numbers.find(owner.id, trunk.id)).toBeNull();
  expect(await pendingIntents()).toEqual([]);
  expect(sip.trunk(trunk.inbound_trunk_id)).toBeUndefined();
  expect(sip.trunk(trunk.outbound_trunk_id)).toBeUndefined();
  await t.db.dataSource.query(`UPDATE sip_provisioning_cleanup SET next_attempt_at = now() - interval '1 second'`);
  expect(await cleanup.runDue()).toBe(0);
});

it('two deletes of one number at once call the provider once: one is answered 200, the other 404', async () => {
  const trunk = await createTrunk();
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const arrivals: (() => void)[] = [];
  const arrived = (n: number) =>
    new Promise<void>((resolve) => {
      arrivals[n] = resolve;
    });
  const [firstArrived, secondArrived] = [arrived(0), arrived(1)];
  let entered = 0;
  const deleteRoute = sip.deleteInboundRoute.bind(sip);
  const calls = jest.spyOn(sip, 'deleteInboundRoute').mockImplementation(async (routeId) => {
    arrivals[entered++]?.();
    await held;
    return deleteRoute(routeId);
  });
  const first = t.http
    .delete(`/api/user/phone-numbers/${trunk.id}`)
    .set(owner.auth)
    .then((r) => r);
  await firstArrived;
  // The first request is at the provider; the second arrives while it waits there.
  const second = t.http
    .delete(`/api/user/phone-numbers/${trunk.id}`)
    .set(owner.auth)
    .then((r) => r);
  await Promise.race([second, secondArrived]);
  release();
  const answers = await Promise.all([first, second]);
  expect(answers.map((r) => [r.status, r.body])).toEqual([
    [200, { message: 'Phone number deleted successfully.' }],
    [404, { error: 'Phone number not found.' }],
  ]);
  expect(calls).toHaveBeenCalledTimes(1);
  expect(await pendingIntents()).toEqual([]);
  expect(await numbers.find(owner.id, trunk.id)).toBeNull();
});
