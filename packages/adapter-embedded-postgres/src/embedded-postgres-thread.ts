import { parentPort, workerData } from 'node:worker_threads';
import { startEmbeddedPostgres } from './embedded-postgres';

/** The body of the thread started by `startEmbeddedPostgresThread` (see there). */
export type ThreadMessage = { readonly url: string } | { readonly error: string } | { readonly stopped: true };

const port = parentPort!;
const dataDir = (workerData as { dataDir: string }).dataDir;

startEmbeddedPostgres(dataDir).then(
  (db) => {
    port.postMessage({ url: db.url } satisfies ThreadMessage);
    port.once('message', () => {
      void db.stop().then(
        () => port.postMessage({ stopped: true } satisfies ThreadMessage),
        (e: unknown) => port.postMessage({ error: errorText(e) } satisfies ThreadMessage),
      );
    });
  },
  (e: unknown) => port.postMessage({ error: errorText(e) } satisfies ThreadMessage),
);

function errorText(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}
