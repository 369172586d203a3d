import type { PGlite } from '@electric-sql/pglite';

interface Entry {
  readonly handlerId: number;
  readonly message: Uint8Array;
  readonly onData: (data: Uint8Array) => void;
  resolve(bytes: number): void;
  reject(error: unknown): void;
}

// Frontend message types that close an exchange: Sync ends an extended-protocol cycle, Query is a
// whole simple-protocol exchange, Terminate ends the session. Startup messages have no type byte
// (they begin with their length), so their first byte is 0.
const SYNC = 0x53;
const QUERY = 0x51;
const TERMINATE = 0x58;
const STARTUP = 0x00;

/**
 * PGlite has one backend session for all socket connections. pglite-socket's own queue keeps a
 * transaction on one connection, but between transactions it interleaves single protocol messages
 * of different connections — so one client's Bind can land on another client's unnamed Parse
 * ("bind message supplies 2 parameters, but prepared statement "" requires 1"). This queue gives
 * the session to one connection from its first message until its exchange is complete (Sync or
 * Query) and, while a transaction is open, until it ends.
 */
export class ProtocolAwareQueryQueue {
  private queue: Entry[] = [];
  private processing = false;
  private owner: number | null = null;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.process();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((e) => {
      if (e.handlerId !== handlerId) return true;
      e.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  /** A connection that goes away mid-exchange or mid-transaction must not keep the session. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    this.owner = null;
    void this.process();
  }

  private next(): Entry | undefined {
    if (this.owner === null) return this.queue.shift();
    const index = this.queue.findIndex((e) => e.handlerId === this.owner);
    return index === -1 ? undefined : this.queue.splice(index, 1)[0];
  }

  private async process(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (let entry = this.next(); entry; entry = this.next()) {
        let bytes = 0;
        const current = entry;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(current.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                current.onData(data);
              },
            }),
          );
        } catch (error) {
          this.owner = null;
          current.reject(error);
          continue;
        }
        const type = current.message[0];
        const exchangeDone = type === SYNC || type === QUERY || type === TERMINATE || type === STARTUP;
        this.owner = this.db.isInTransaction() || !exchangeDone ? current.handlerId : null;
        current.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }
}
