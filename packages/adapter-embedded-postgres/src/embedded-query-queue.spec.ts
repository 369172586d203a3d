import type { PGlite } from '@electric-sql/pglite';
import { ProtocolAwareQueryQueue } from './embedded-query-queue';

/** A stand-in session that records the order messages reach it and tracks BEGIN/COMMIT. */
function fakeSession() {
  const seen: string[] = [];
  let inTx = false;
  const db = {
    runExclusive: <T>(fn: () => Promise<T>) => fn(),
    isInTransaction: () => inTx,
    exec: async (sql: string) => {
      seen.push(`exec ${sql}`);
      inTx = false;
    },
    execProtocolRawStream: async (message: Uint8Array, { onRawData }: { onRawData: (d: Uint8Array) => void }) => {
      const text = Buffer.from(message).toString('latin1');
      seen.push(text);
      if (text.endsWith(':BEGIN')) inTx = true;
      if (text.endsWith(':COMMIT')) inTx = false;
      await new Promise((r) => setImmediate(r));
      onRawData(new Uint8Array([1]));
    },
  };
  return { db: db as unknown as PGlite, seen };
}

const msg = (type: string, who: string, tail = '') => new Uint8Array(Buffer.from(`${type}${who}${tail}`, 'latin1'));

describe('ProtocolAwareQueryQueue', () => {
  it('keeps an extended-protocol exchange of one connection together', async () => {
    const { db, seen } = fakeSession();
    const q = new ProtocolAwareQueryQueue(db);
    const sink = () => undefined;
    // Arrival order interleaves two connections, as pglite-socket hands messages over one by one.
    await Promise.all([
      q.enqueue(1, msg('P', 'a'), sink),
      q.enqueue(2, msg('P', 'b'), sink),
      q.enqueue(1, msg('B', 'a'), sink),
      q.enqueue(2, msg('B', 'b'), sink),
      q.enqueue(1, msg('S', 'a'), sink),
      q.enqueue(2, msg('S', 'b'), sink),
    ]);
    expect(seen).toEqual(['Pa', 'Ba', 'Sa', 'Pb', 'Bb', 'Sb']);
  });

  it('keeps a transaction on its connection until it ends', async () => {
    const { db, seen } = fakeSession();
    const q = new ProtocolAwareQueryQueue(db);
    const sink = () => undefined;
    await Promise.all([
      q.enqueue(1, msg('Q', 'a', ':BEGIN'), sink),
      q.enqueue(2, msg('Q', 'b', ':SELECT'), sink),
      q.enqueue(1, msg('Q', 'a', ':UPDATE'), sink),
      q.enqueue(1, msg('Q', 'a', ':COMMIT'), sink),
    ]);
    expect(seen).toEqual(['Qa:BEGIN', 'Qa:UPDATE', 'Qa:COMMIT', 'Qb:SELECT']);
  });

  it('frees the session when the owning connection goes away mid-transaction', async () => {
    const { db, seen } = fakeSession();
    const q = new ProtocolAwareQueryQueue(db);
    const sink = () => undefined;
    await q.enqueue(1, msg('Q', 'a', ':BEGIN'), sink);
    const waiting = q.enqueue(2, msg('Q', 'b', ':SELECT'), sink);
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['Qa:BEGIN']);
    q.clearQueueForHandler(1);
    await q.clearTransactionIfNeeded(1);
    await waiting;
    expect(seen).toEqual(['Qa:BEGIN', 'exec ROLLBACK', 'Qb:SELECT']);
  });
});
