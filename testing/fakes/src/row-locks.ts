/**
 * Row locks for fakes of repositories whose `update(id, decide)` holds a row: a second change to
 * the same row waits until the first one finished, as `SELECT … FOR UPDATE` makes it wait. Unlike
 * a database lock they are not re-entrant: a change that updates its own row again never ends.
 */
export class RowLocks<K> {
  private readonly tails = new Map<K, Promise<unknown>>();

  async hold<T>(key: K, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const run = before.then(work, work);
    const tail = run.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
