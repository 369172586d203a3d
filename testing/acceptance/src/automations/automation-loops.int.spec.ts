import { AUTOMATION_EVENTS_CONSUMER, TOKENS } from '@voiceplane/application';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { createAssistant, CUSTOMER } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * No loops on the sandbox: a call placed by a run carries its
 * `automation_run_id`; its unanswered end calls back only while `max_attempts` allows; a call's
 * end starts at most one run per automation however often it is delivered.
 */

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
});
afterAll(async () => {
  await t.close();
});

const consumer = () => {
  const found = t.runtime.container
    .getAll(TOKENS.EventConsumer)
    .find((c) => c.options.consumer === AUTOMATION_EVENTS_CONSUMER);
  if (!found) throw new Error('no automation consumer');
  return found;
};

/** Hands the call's real `call.ended` outbox event to the automations' consumer, as the bus would. */
async function deliverEnd(callId: number, messageId?: string): Promise<void> {
  const [row] = await t.db.dataSource.query(
    `SELECT id, topic, payload, occurred_at FROM outbox_events WHERE topic = 'call.ended' AND (payload->>'call_id')::bigint = $1`,
    [callId],
  );
  if (!row) throw new Error(`no call.ended for call ${callId}`);
  await consumer().handle({
    id: messageId ?? row.id,
    topic: row.topic,
    occurredAt: new Date(row.occurred_at).toISOString(),
    payload: row.payload,
  });
}

async function endUnanswered(user: TestUser, callId: number): Promise<void> {
  const res = await t.http.post(`/api/sandbox/calls/${callId}/finish`).set(user.auth).send({ status: 'no-answer' });
  expect(res.status).toBe(200);
}

async function followup(
  user: TestUser,
  params: Record<string, unknown> = {},
): Promise<{ automationId: string; assistant: number }> {
  const assistant = await createAssistant(t, user);
  const res = await t.http
    .post('/api/user/automate/templates/delayed_followup_call')
    .set(user.auth)
    .send({
      assistant_id: assistant,
      params: { delay_minutes: 30, test_phone_number: CUSTOMER, ...params },
      test: false,
    });
  expect(res.status).toBe(201);
  return { automationId: res.body.automation_id, assistant };
}

const runsOf = async (user: TestUser, automationId: string): Promise<Array<{ id: string; status: string }>> =>
  (await t.http.get(`/api/user/automate/flows/${automationId}/runs?limit=20`).set(user.auth)).body.runs;

/** Resumes the paused call-back run now (sandbox resume-now) and answers the call it placed. */
async function callBack(user: TestUser, runId: string): Promise<number> {
  const res = await t.http.post(`/api/sandbox/automate/runs/${runId}/resume-now`).set(user.auth);
  expect(res.body.run).toMatchObject({ status: 'SUCCEEDED' });
  const calls = await t.http.get(`/api/user/calls?automation_run_id=${runId}`).set(user.auth);
  expect(calls.body.data).toHaveLength(1);
  expect(calls.body.data[0].automation_run_id).toBe(runId);
  return calls.body.data[0].id;
}

async function originalCall(user: TestUser, assistant: number): Promise<number> {
  const res = await t.http
    .post('/api/user/make_call')
    .set(user.auth)
    .send({ assistant_id: assistant, phone_number: CUSTOMER });
  expect(res.status).toBe(200);
  return res.body.call_id;
}

describe('call-back chains', () => {
  it('unanswered original → one call-back → unanswered again → nothing more (max_attempts 1)', async () => {
    const user = await t.createUser();
    const { automationId, assistant } = await followup(user);
    const original = await originalCall(user, assistant);
    expect((await t.http.get(`/api/user/calls/${original}`).set(user.auth)).body.data.automation_run_id).toBeNull();
    await endUnanswered(user, original);
    await deliverEnd(original);

    const [first] = await runsOf(user, automationId);
    expect(first.status).toBe('PAUSED');
    const detail = (await t.http.get(`/api/user/automate/flows/${automationId}/runs?run_id=${first.id}`).set(user.auth))
      .body.run;
    expect(detail.steps[0].name).toBe('call_ended_trigger');

    const callback = await callBack(user, first.id);
    expect((await t.http.get(`/api/user/calls/${callback}`).set(user.auth)).body.data).toMatchObject({
      automation_run_id: first.id,
      customer_phone: CUSTOMER,
    });
    await endUnanswered(user, callback);
    await deliverEnd(callback);

    expect(await runsOf(user, automationId)).toHaveLength(1);
    expect((await t.http.get('/api/user/calls').set(user.auth)).body.total).toBe(2);
  });

  it('with max_attempts 2 calls back exactly twice, the second run knowing the run that placed its call', async () => {
    const user = await t.createUser();
    const { automationId, assistant } = await followup(user, { max_attempts: '2' });
    const original = await originalCall(user, assistant);
    await endUnanswered(user, original);
    await deliverEnd(original);
    const [first] = await runsOf(user, automationId);
    const firstCallback = await callBack(user, first.id);
    await endUnanswered(user, firstCallback);
    await deliverEnd(firstCallback);

    const runs = await runsOf(user, automationId);
    expect(runs).toHaveLength(2);
    const second = runs.find((r) => r.id !== first.id) as { id: string };
    const detail = (
      await t.http.get(`/api/user/automate/flows/${automationId}/runs?run_id=${second.id}`).set(user.auth)
    ).body.run;
    expect(detail.status).toBe('PAUSED');
    const stored = await t.db.dataSource.query(`SELECT state FROM automation_runs WHERE id = $1`, [second.id]);
    expect(stored[0].state.input.call).toMatchObject({ id: firstCallback, automation_run_id: first.id });

    const secondCallback = await callBack(user, second.id);
    await endUnanswered(user, secondCallback);
    await deliverEnd(secondCallback);
    expect(await runsOf(user, automationId)).toHaveLength(2);
    expect((await t.http.get('/api/user/calls').set(user.auth)).body.total).toBe(3);
  });

  it('another automation of the assistant still runs on a call-back', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      receiver.respondWith(() => ({ status: 200, body: '{}' }));
      const user = await t.createUser();
      const { automationId, assistant } = await followup(user);
      const forward = await t.http
        .post('/api/user/automate/templates/post_call_webhook_forward')
        .set(user.auth)
        .send({ assistant_id: assistant, params: { url: receiver.url('/calls') }, test: false });
      expect(forward.status).toBe(201);
      const original = await originalCall(user, assistant);
      await endUnanswered(user, original);
      await deliverEnd(original);
      const [first] = await runsOf(user, automationId);
      const callback = await callBack(user, first.id);
      await endUnanswered(user, callback);
      await deliverEnd(callback);
      expect(await runsOf(user, automationId)).toHaveLength(1);
      expect(await runsOf(user, forward.body.automation_id)).toHaveLength(2);
      const forwarded = receiver.received.filter((r) => r.path === '/calls').map((r) => JSON.parse(r.body).id);
      expect(forwarded.sort()).toEqual([original, callback].sort());
    } finally {
      await receiver.close();
    }
  });
});

describe('one run per call end', () => {
  it('starts one run when the same call.ended is delivered twice, also under another message id', async () => {
    const user = await t.createUser();
    const { automationId, assistant } = await followup(user);
    const original = await originalCall(user, assistant);
    await endUnanswered(user, original);
    await Promise.all([deliverEnd(original), deliverEnd(original)]);
    await deliverEnd(original, 'evt_republished');
    expect(await runsOf(user, automationId)).toHaveLength(1);
  });

  it('rejects max_attempts outside 1–5', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    const res = await t.http
      .post('/api/user/automate/templates/delayed_followup_call')
      .set(user.auth)
      .send({
        assistant_id: assistant,
        params: { delay_minutes: 30, test_phone_number: CUSTOMER, max_attempts: 6 },
        test: false,
      });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      error: 'invalid_params',
      errors: { 'params.max_attempts': ['The attempts must be between 1 and 5.'] },
    });
  });
});
