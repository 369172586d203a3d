import { FakeStore } from '@voiceplane/adapter-fakes';
import { DeliveryLog } from './delivery-log';
import { WebhookDeliveries } from './webhook-deliveries';

/** The delivery log on the in-memory repository (proven by the delivery repository contract). */

const START = new Date('2030-05-01T12:00:00.000Z');

function setup() {
  const store = new FakeStore(START);
  const deliveries = new WebhookDeliveries(
    store.uow,
    store.deliveries,
    store.outbox,
    store.jobs,
    store.ids,
    store.clock,
  );
  return { deliveries, log: new DeliveryLog(store.deliveries) };
}

describe('DeliveryLog', () => {
  it("gives the owner a delivery with its attempts, and another account's as not found", async () => {
    const { deliveries, log } = setup();
    const { deliveryId } = await deliveries.enqueue({
      userId: 1,
      eventType: 'post_call',
      targetUrl: 'https://hooks.example.com/a',
      payload: { ok: true },
      source: { type: 'assistant', id: 3 },
      subject: null,
    });

    expect(await log.get(1, deliveryId)).toEqual({
      ok: true,
      value: { delivery: expect.objectContaining({ id: deliveryId, body: '{"ok":true}' }), attempts: [] },
    });
    expect(await log.get(2, deliveryId)).toEqual({ ok: false, error: 'not_found' });
    expect((await log.list(1, {}, { page: 1, perPage: 10 })).items.map((d) => d.id)).toEqual([deliveryId]);
    expect((await log.list(2, {}, { page: 1, perPage: 10 })).total).toBe(0);
  });
});
