import pino from 'pino';
import { loadConfig } from '@voiceplane/composition';
import { createTestDatabase } from '@voiceplane/test-env';
import { startWorker, WorkerConfigError } from './worker';

const logger = pino({ level: 'silent' });
const config = (env: NodeJS.ProcessEnv) => loadConfig(env);

describe('startWorker', () => {
  it.each([
    ['DATABASE_URL', { AMQP_URL: 'amqp://127.0.0.1:1' }, /needs DATABASE_URL/],
    ['AMQP_URL', { DATABASE_URL: 'postgres://127.0.0.1:1/x' }, /needs AMQP_URL/],
  ])('refuses to start without %s', async (_name, env, message) => {
    await expect(startWorker({ config: config(env), logger })).rejects.toThrow(WorkerConfigError);
    await expect(startWorker({ config: config(env), logger })).rejects.toThrow(message);
  });

  it('refuses to start on a database whose schema is behind', async () => {
    const db = await createTestDatabase();
    try {
      await db.dataSource.query(`DELETE FROM schema_migrations WHERE name = 'OutboxPolling1795337052089'`);
      const start = startWorker({ config: config({ DATABASE_URL: db.url, AMQP_URL: 'amqp://127.0.0.1:1' }), logger });
      await expect(start).rejects.toThrow(
        'The database schema is behind (OutboxPolling1795337052089): migrate before starting workers.',
      );
    } finally {
      await db.close();
    }
  });
});
