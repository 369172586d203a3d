import { FakeStore, RecordingLogger, SAMPLE_CATALOG } from '@voiceplane/adapter-fakes';
import { AssistantConfig, CallOutcome, draftAssistant, TranscriptItem } from '@voiceplane/domain';
import { BalanceService } from '../billing';
import { ConversationEvaluationRequest, ReplyGenerator } from '../conversation-policy';
import { WebhookDeliveries } from '../webhooks';
import { CallConfigurations } from './call-configurations';
import { EndCall } from './end-call';
import { RecordCallEvent } from './record-call-event';

/** Post-call evaluation of calls the runtime did not evaluate, on fakes. */

const START = new Date('2030-05-01T12:00:00.000Z');
const schema = [
  { name: 'customer_name', type: 'string' as const, description: 'Who called' },
  { name: 'order_id', type: 'string' as const, description: null },
];
const TRANSCRIPT: TranscriptItem[] = [
  { role: 'assistant', content: 'Hello, Acme here.', at: START.toISOString() },
  { role: 'customer', content: 'Ann here, where is A-1?', at: START.toISOString() },
];

function setup(evaluate: (request: ConversationEvaluationRequest) => Promise<Record<string, unknown>>) {
  const store = new FakeStore(START);
  const log = new RecordingLogger();
  const seen: ConversationEvaluationRequest[] = [];
  const generator: ReplyGenerator = {
    nextTurn: async () => ({ content: 'unused', toolCalls: [] }),
    evaluateConversation: async (request) => {
      seen.push(request);
      return evaluate(request);
    },
  };
  const deliveries = new WebhookDeliveries(
    store.uow,
    store.deliveries,
    store.outbox,
    store.jobs,
    store.ids,
    store.clock,
  );
  const events = new RecordCallEvent(
    store.calls,
    new EndCall(store.assistants, new BalanceService(store.ledger), deliveries, { phone: 0.1, chatapp: 0.08 }),
    store.clock,
    { generator, catalog: store.catalog, log },
  );
  const configurations = new CallConfigurations(store.tools, store.catalog);
  let counter = 0;
  const report = (
    callId: number,
    event: Parameters<RecordCallEvent['record']>[1]['event'],
    eventId = `e-${++counter}`,
  ) => events.record(callId, { eventId, occurredAt: null, event });

  /** An answered call of a new assistant with a post_call webhook. */
  const talking = async (assistantOver: Partial<AssistantConfig> = {}) => {
    const user = await store.account({ balance: 5 });
    const assistant = await store.assistants.create(user.id, {
      ...draftAssistant({ name: 'Support' }, SAMPLE_CATALOG),
      isWebhookActive: true,
      webhookUrl: 'https://hooks.example.com/calls',
      postCallSchema: schema,
      ...assistantOver,
    });
    if (assistant === 'inbound_number_taken') throw new Error('taken');
    const line = { phoneNumberId: null, phoneNumber: '+15550000000', sip: null };
    const runtimeConfig = await configurations.forStart({
      direction: 'outbound',
      channel: 'phone',
      customerPhone: '+14155551234',
      line,
      assistant,
      variables: {},
    });
    const { call } = await store.calls.create({
      userId: user.id,
      assistantId: assistant.id,
      direction: 'outbound',
      channel: 'phone',
      status: 'initiated',
      customerPhone: '+14155551234',
      line,
      variables: {},
      runtimeConfig,
      now: START,
    });
    await report(call.id, { type: 'answered' });
    return { user, call };
  };
  const postCall = async (userId: number) =>
    (await store.deliveries.list(userId, {}, { page: 1, perPage: 15 })).items.map(
      (d) => JSON.parse(d.body) as Record<string, unknown>,
    );
  const ended = (outcome: Partial<CallOutcome> = {}): { type: 'ended'; outcome: CallOutcome } => ({
    type: 'ended',
    outcome: { status: 'completed', ...outcome },
  });
  return { store, log, seen, report, talking, postCall, ended };
}

describe('a call end the runtime did not evaluate', () => {
  it('is evaluated over the final transcript with the schema; the values are stored and in the post_call payload', async () => {
    const { store, seen, report, talking, postCall, ended } = setup(async () => ({
      customer_name: 'Ann',
      made_up: 1,
      status: true,
      summary: 'Asked about A-1.',
    }));
    const { user, call } = await talking();
    await report(call.id, ended({ transcript: TRANSCRIPT }));

    const values = { customer_name: 'Ann', order_id: null, status: true, summary: 'Asked about A-1.' };
    expect((await store.calls.findById(call.id))?.extractedVariables).toEqual(values);
    expect(await postCall(user.id)).toEqual([expect.objectContaining({ extracted_variables: values })]);
    expect(seen).toEqual([
      {
        model: SAMPLE_CATALOG.models[0].name,
        schema,
        transcript: [
          { role: 'assistant', content: 'Hello, Acme here.' },
          { role: 'user', content: 'Ann here, where is A-1?' },
        ],
      },
    ]);
  });

  it('reads the transcript the call gathered when the end carries none', async () => {
    const { seen, report, talking, ended } = setup(async () => ({ status: true, summary: 'ok' }));
    const { call } = await talking();
    await report(call.id, { type: 'transcript', items: TRANSCRIPT });
    await report(call.id, ended());
    expect(seen[0].transcript).toHaveLength(2);
  });

  it('claims nothing when the evaluator fails, and logs a warning', async () => {
    const { store, log, report, talking, postCall, ended } = setup(async () =>
      Promise.reject(new Error('model overloaded')),
    );
    const { user, call } = await talking();
    await report(call.id, ended({ transcript: TRANSCRIPT }));
    const nothing = { customer_name: null, order_id: null, status: false, summary: '' };
    expect((await store.calls.findById(call.id))?.extractedVariables).toEqual(nothing);
    expect(await postCall(user.id)).toEqual([expect.objectContaining({ extracted_variables: nothing })]);
    expect(log.lines).toEqual([
      expect.objectContaining({ level: 'warn', details: { call_id: call.id, error: 'model overloaded' } }),
    ]);
  });

  it('is not evaluated: runtime values, evaluation off, a silent call, a refused end, a repeated event', async () => {
    const { store, seen, report, talking, ended } = setup(async () => ({ status: true, summary: 'x' }));
    const supplied = await talking();
    await report(
      supplied.call.id,
      ended({ transcript: TRANSCRIPT, extractedVariables: { status: true, summary: 'From the runtime.' } }),
    );
    expect((await store.calls.findById(supplied.call.id))?.extractedVariables).toEqual({
      status: true,
      summary: 'From the runtime.',
    });

    const off = await talking({ postCallEvaluation: false });
    await report(off.call.id, ended({ transcript: TRANSCRIPT }));
    expect((await store.calls.findById(off.call.id))?.extractedVariables).toEqual({});

    const silent = await talking();
    await report(silent.call.id, ended());
    expect((await store.calls.findById(silent.call.id))?.extractedVariables).toEqual({
      customer_name: null,
      order_id: null,
      status: false,
      summary: '',
    });

    const once = await talking();
    await report(once.call.id, ended({ transcript: TRANSCRIPT }), 'end-1');
    await report(once.call.id, ended({ transcript: TRANSCRIPT }), 'end-1');
    expect((await report(once.call.id, ended({ status: 'failed', transcript: TRANSCRIPT }), 'end-2')).ok).toBe(false);
    await report(once.call.id, ended({ transcript: TRANSCRIPT }), 'end-3');
    expect(seen).toHaveLength(1);
  });
});
