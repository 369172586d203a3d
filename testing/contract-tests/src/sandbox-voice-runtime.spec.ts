import { FakeStore, SAMPLE_CATALOG } from '@voiceplane/adapter-fakes';
import { SandboxVoiceRuntime } from '@voiceplane/adapter-sandbox';
import {
  BalanceService,
  CallConfigurations,
  EndCall,
  RecordCallEvent,
  WebhookDeliveries,
} from '@voiceplane/application';
import { draftAssistant } from '@voiceplane/domain';
import { voiceRuntimeContract } from './voice-runtime.contract';

/** The sandbox reports through the real runtime ingress, so it runs on the in-memory stores; a call it holds is ringing. */
voiceRuntimeContract('sandbox', async () => {
  const store = new FakeStore(new Date('2030-05-01T12:00:00.000Z'));
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
  );
  const runtime = new SandboxVoiceRuntime(events, store.calls, store.ids);
  const user = await store.account({ balance: 5 });
  const assistant = await store.assistants.create(user.id, draftAssistant({ name: 'Sales' }, SAMPLE_CATALOG));
  if (assistant === 'inbound_number_taken') throw new Error('inbound number taken');
  const configurations = new CallConfigurations(store.tools, store.catalog, store.assistants);
  const placed: number[] = [];
  return {
    runtime,
    callToPlace: async () => {
      const line = runtime.platformLine;
      const customerPhone = '+14155551234';
      const runtimeConfig = await configurations.forStart({
        direction: 'outbound',
        channel: 'phone',
        customerPhone,
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
        customerPhone,
        line,
        variables: {},
        runtimeConfig,
        now: store.clock.now(),
      });
      placed.push(call.id);
      return { callId: call.id, userId: user.id, customerPhone, line, ringingTimeSeconds: 25, maxDurationSeconds: 600 };
    },
    held: async () => {
      const calls = await Promise.all(placed.map((id) => store.calls.findOwned(user.id, id)));
      return calls.filter((c) => c?.status === 'ringing').map((c) => c!.id);
    },
    refuseNext: (call) => void runtime.faults.arm({ accountId: call.userId, targetId: null, count: 1 }),
  };
});
