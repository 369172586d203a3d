import { applyMessageDeliveryUpdate, MessageDeliveryState, MessageDeliveryUpdateStatus } from './message-delivery';

const t0 = new Date('2026-03-01T10:15:30.000Z');
const t1 = new Date('2026-03-01T10:16:02.000Z');
const state = (status: MessageDeliveryState['status']): MessageDeliveryState => ({
  status,
  errorCode: null,
  errorMessage: null,
  statusHistory: [{ status: 'queued', at: t0 }],
});

type Row = [MessageDeliveryUpdateStatus, MessageDeliveryUpdateStatus, MessageDeliveryUpdateStatus];

/** [current, update, status afterwards] for every pair of outbound statuses. */
const table: Row[] = [
  ['queued', 'queued', 'queued'],
  ['queued', 'sent', 'sent'],
  ['queued', 'delivered', 'delivered'],
  ['queued', 'read', 'read'],
  ['queued', 'failed', 'failed'],
  ['queued', 'undelivered', 'undelivered'],
  ['sent', 'queued', 'sent'],
  ['sent', 'sent', 'sent'],
  ['sent', 'delivered', 'delivered'],
  ['sent', 'read', 'read'],
  ['sent', 'failed', 'failed'],
  ['sent', 'undelivered', 'undelivered'],
  ['delivered', 'queued', 'delivered'],
  ['delivered', 'sent', 'delivered'],
  ['delivered', 'delivered', 'delivered'],
  ['delivered', 'read', 'read'],
  ['delivered', 'failed', 'failed'],
  ['delivered', 'undelivered', 'undelivered'],
  ['read', 'queued', 'read'],
  ['read', 'sent', 'read'],
  ['read', 'delivered', 'read'],
  ['read', 'read', 'read'],
  ['read', 'failed', 'read'],
  ['read', 'undelivered', 'read'],
  ['failed', 'queued', 'failed'],
  ['failed', 'sent', 'failed'],
  ['failed', 'delivered', 'failed'],
  ['failed', 'read', 'failed'],
  ['failed', 'failed', 'failed'],
  ['failed', 'undelivered', 'failed'],
  ['undelivered', 'sent', 'undelivered'],
  ['undelivered', 'read', 'undelivered'],
  ['undelivered', 'failed', 'undelivered'],
];

describe('chat-app delivery statuses', () => {
  it.each(table)(
    '%s + %s → %s; the update is always in the history; an event only on change',
    (current, update, expected) => {
      const r = applyMessageDeliveryUpdate(state(current), { status: update, at: t1 });
      if (!r.ok) throw new Error('refused');
      expect(r.value.next.status).toBe(expected);
      expect(r.value.next.statusHistory).toEqual([
        { status: 'queued', at: t0 },
        { status: update, at: t1 },
      ]);
      expect(r.value.events).toEqual(
        expected === current ? [] : [{ type: 'message_status_changed', status: expected, at: t1 }],
      );
    },
  );

  it('a failure keeps the provider error', () => {
    const r = applyMessageDeliveryUpdate(state('sent'), {
      status: 'failed',
      at: t1,
      errorCode: '131026',
      errorMessage: 'Message undeliverable',
    });
    expect(r).toMatchObject({
      ok: true,
      value: { next: { status: 'failed', errorCode: '131026', errorMessage: 'Message undeliverable' } },
    });
  });

  it('a failure reported after read keeps no error on the message', () => {
    const r = applyMessageDeliveryUpdate(state('read'), {
      status: 'failed',
      at: t1,
      errorCode: '131026',
      errorMessage: 'x',
    });
    expect(r).toMatchObject({ ok: true, value: { next: { status: 'read', errorCode: null, errorMessage: null } } });
  });

  it('an inbound (received) message has no delivery updates', () => {
    expect(applyMessageDeliveryUpdate(state('received'), { status: 'read', at: t1 })).toEqual({
      ok: false,
      error: { code: 'inbound_message' },
    });
  });
});
