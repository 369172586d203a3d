import { BusMessage } from '@voiceplane/application';
import { eventually } from '@voiceplane/test-env';
import { InProcessMessageBus } from './in-process-message-bus';

const message = (id: string, payload: unknown): BusMessage => ({
  id,
  topic: 'job.run',
  payload,
  occurredAt: '2026-11-22T00:00:00.000Z',
});

describe('InProcessMessageBus', () => {
  let bus: InProcessMessageBus;
  beforeEach(() => {
    bus = new InProcessMessageBus();
  });
  afterEach(() => bus.close());

  it('rejects a batch with a payload no broker could carry, and routes none of it', async () => {
    const received: string[] = [];
    await bus.subscribe('job.#', async (m) => void received.push(m.id), { consumer: 'jobs' });

    await expect(bus.publish([message('fine', { n: 1 }), message('bigint', { n: 1n })])).rejects.toThrow(/BigInt/);

    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toEqual([]);
  });

  it('hands each consumer its own JSON copy, as a broker would', async () => {
    const copies: BusMessage[] = [];
    const handler = async (m: BusMessage) => {
      copies.push(m);
      (m.payload as { touched?: boolean }).touched = true;
    };
    await bus.subscribe('job.#', handler, { consumer: 'first' });
    await bus.subscribe('job.#', handler, { consumer: 'second' });
    const at = new Date('2026-11-22T08:00:00.000Z');

    await bus.publish([message('m-1', { at })]);

    await eventually(() => copies.length >= 2, 'both consumers to get their copy');
    expect(copies).toHaveLength(2);
    expect(copies[0].payload).not.toBe(copies[1].payload);
    expect(copies.map((m) => (m.payload as { at: unknown }).at)).toEqual([at.toISOString(), at.toISOString()]);
  });

  it('never runs a handler inside publish()', async () => {
    const events: string[] = [];
    await bus.subscribe('job.#', async () => void events.push('handled'), { consumer: 'jobs' });

    await bus.publish([message('m-1', null)]);
    events.push('published');

    await eventually(() => events.includes('handled'), 'the handler to run');
    expect(events).toEqual(['published', 'handled']);
  });

  it('rejects options that RabbitMQ could not honour either', async () => {
    const noop = async () => undefined;
    await expect(bus.subscribe('#', noop, { consumer: 'has space' })).rejects.toThrow(/consumer name/);
    await expect(bus.subscribe('#', noop, { consumer: 'ok', prefetch: 0 })).rejects.toThrow(/prefetch/);
    await expect(bus.subscribe('#', noop, { consumer: 'ok', maxRetries: -1 })).rejects.toThrow(/maxRetries/);
  });
});
