import { Writable } from 'node:stream';
import pino from 'pino';
import supertest from 'supertest';
import { InProcessMessageBus } from '@voiceplane/adapter-local-bus';
import { composeApi, loadConfig, type ApiRuntime } from '@voiceplane/composition';
import { createTestDatabase, TestDatabase } from '@voiceplane/test-env';
import {
  checkoutSession,
  signStripe,
  stripeEvent,
  StripeStub,
} from '@voiceplane/adapter-stripe/test-support/stripe-stub';

/** The Stripe secrets are configuration only: no log line at the most verbose level and no answer carries them, failures included. */
const SECRET_KEY = 'sk_test_never-in-a-log-0123456789';
const WEBHOOK_SECRET = 'whsec_never-in-a-log-abcdef';

let stub: StripeStub;
let db: TestDatabase;
let runtime: ApiRuntime;
let bus: InProcessMessageBus;
const log: string[] = [];
beforeAll(async () => {
  stub = await StripeStub.start();
  db = await createTestDatabase();
  const sink = new Writable({
    write(chunk, _enc, done) {
      log.push(String(chunk));
      done();
    },
  });
  bus = new InProcessMessageBus();
  const config = {
    ...loadConfig({
      BILLING_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stub.baseUrl,
    }),
    allowPrivateTargets: true,
  };
  runtime = await composeApi(config, { dataSource: db.dataSource, logger: pino({ level: 'trace' }, sink), bus });
  for (const task of runtime.background) await task.start();
});
afterAll(async () => {
  for (const task of [...runtime.background].reverse()) await task.stop();
  await bus.close();
  await db.close();
  await stub.close();
});

it('checkouts, a Stripe outage, forged and genuine webhooks leave neither secret in a log line or an answer', async () => {
  const http = supertest(runtime.app);
  const created = await http
    .post('/api/admin/users')
    .set({ Authorization: `Bearer ${runtime.adminToken}` })
    .send({ name: 'Payer', email: 'payer@example.test', balance: 0 });
  const auth = { Authorization: `Bearer ${created.body.api_key.token}` };
  const answers: string[] = [];
  const ok = await http.post('/api/user/billing/top-ups').set(auth).send({ amount: 50 });
  answers.push(JSON.stringify(ok.body));
  stub.outage = 500;
  answers.push(JSON.stringify((await http.post('/api/user/billing/top-ups').set(auth).send({ amount: 50 })).body));
  stub.outage = null;
  const event = JSON.stringify(
    stripeEvent(
      'evt_secret',
      'checkout.session.completed',
      checkoutSession({
        id: 'cs_x',
        topUpId: ok.body.data.id,
        customer: 'cus_x',
        paymentStatus: 'paid',
        paymentIntent: null,
      }),
    ),
  );
  answers.push(
    JSON.stringify(
      (
        await http
          .post('/api/providers/billing/stripe/webhook')
          .set('Stripe-Signature', signStripe(event, 'whsec_wrong'))
          .send(event)
      ).body,
    ),
  );
  answers.push(
    JSON.stringify(
      (
        await http
          .post('/api/providers/billing/stripe/webhook')
          .set('Stripe-Signature', signStripe(event, WEBHOOK_SECRET))
          .send(event)
      ).body,
    ),
  );

  expect(log.some((line) => line.includes('billing provider could not open a checkout'))).toBe(true);
  for (const secret of [SECRET_KEY, WEBHOOK_SECRET, 'never-in-a-log']) {
    expect(log.filter((line) => line.includes(secret))).toEqual([]);
    expect(answers.filter((a) => a.includes(secret))).toEqual([]);
  }
});
