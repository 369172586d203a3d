import { ProtocolAwareQueryQueue } from './embedded-query-queue';

export interface EmbeddedPostgres {
  /** A `postgres://` URL the ordinary `pg` driver connects to. */
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * PGlite behind a loopback socket so the production driver, pool and migrations run unchanged.
 * `dataDir` undefined keeps everything in memory (tests); a path persists across restarts.
 */
export async function startEmbeddedPostgres(dataDir?: string): Promise<EmbeddedPostgres> {
  // Loaded here, not at the top: the api's entry imports this package only to start the database
  // thread, and that thread is what needs PGlite (its JavaScript alone is half a megabyte).
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  // PGlite starts PostgreSQL with 128MB of shared buffers, and setting them up is a large share of
  // its start time (about a quarter of a warm restart's database open). 32MB serves the embedded
  // default's working set; the data files stay in the OS page cache either way.
  const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];
  // pgvector, built for PGlite: knowledge-base passages are then searched by nearest neighbour
  // with its operators and HNSW indexes (the server's `real[]` fallback is for PostgreSQL without it).
  // Its bundle is a 50 kB archive unpacked at start, so it is always given rather than on demand.
  const { vector } = await import('@electric-sql/pglite-pgvector');
  const extensions = { vector };
  const db = await PGlite.create(dataDir ? { dataDir, startParams, extensions } : { startParams, extensions });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 16 });
  // Replaced before start(): every connection handler is given the server's queue when it attaches.
  (server as unknown as { queryQueue: ProtocolAwareQueryQueue }).queryQueue = new ProtocolAwareQueryQueue(db);
  await server.start();
  // getServerConn() answers "host:port" once listening on the ephemeral port.
  const conn = server.getServerConn();
  return {
    url: `postgres://postgres:postgres@${conn}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
