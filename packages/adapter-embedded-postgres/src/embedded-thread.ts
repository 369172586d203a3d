import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EmbeddedPostgres } from './embedded-postgres';
import type { ThreadMessage } from './embedded-postgres-thread';

/**
 * The embedded database on a thread of its own. Opening PGlite is about a second and a half of
 * CPU (PostgreSQL starting inside WASM), and on the api's main thread it could only follow the
 * loading of the api's modules, which is about as long; on its own thread the two overlap. Queries
 * then run on that thread too, and the main thread reaches it over the same loopback socket as
 * before, so nothing else changes. Built output only: the thread runs the compiled body file.
 */
export function startEmbeddedPostgresThread(dataDir: string): Promise<EmbeddedPostgres> {
  const worker = new Worker(join(__dirname, 'embedded-postgres-thread.js'), { workerData: { dataDir } });
  return new Promise<EmbeddedPostgres>((resolve, reject) => {
    const failed = (e: Error) => reject(e);
    worker.once('error', failed);
    worker.once('exit', (code) =>
      reject(new Error(`embedded PostgreSQL thread exited with ${code} before it was ready`)),
    );
    worker.once('message', (m: ThreadMessage) => {
      if ('error' in m) return reject(new Error(`embedded PostgreSQL failed to start: ${m.error}`));
      if (!('url' in m)) return reject(new Error('embedded PostgreSQL thread answered out of turn'));
      worker.removeAllListeners('exit');
      worker.off('error', failed);
      // Once serving, a crash of the database thread is a crash of the process, as it was on the main thread.
      worker.once('error', (e) => {
        throw e;
      });
      resolve({
        url: m.url,
        stop: () =>
          new Promise<void>((stopped, stopFailed) => {
            worker.once('message', (r: ThreadMessage) => {
              void worker.terminate();
              if ('error' in r) stopFailed(new Error(r.error));
              else stopped();
            });
            worker.postMessage('stop');
          }),
      });
    });
  });
}
