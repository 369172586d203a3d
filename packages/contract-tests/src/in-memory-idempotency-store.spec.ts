import { InMemoryIdempotencyStore, ManualClock } from '@voiceplane/adapter-fakes';
import { idempotencyStoreContract } from './idempotency-store.contract';

idempotencyStoreContract('in-memory', async () => new InMemoryIdempotencyStore(new ManualClock(new Date('2026-11-22T10:00:00.000Z'))));

describe('InMemoryIdempotencyStore', () => {
  it('judges expiry by the clock it is given', async () => {
    const clock = new ManualClock(new Date('2026-11-22T10:00:00.000Z'));
    const store = new InMemoryIdempotencyStore(clock);
    await store.claim('scope', 'a'.repeat(64), new Date('2026-11-23T10:00:00.000Z'));

    clock.set(new Date('2026-11-23T10:00:00.000Z'));
    expect(await store.claim('scope', 'b'.repeat(64), new Date('2026-11-24T10:00:00.000Z'))).toMatchObject({ fingerprint: 'a'.repeat(64) });
    clock.advance(1);
    expect(await store.claim('scope', 'b'.repeat(64), new Date('2026-11-24T10:00:00.000Z'))).toBeNull();
  });
});
