import pino from 'pino';
import { InProcessMessageBus } from '@voiceplane/adapter-local-bus';
import { composeApi, loadConfig, type ApiRuntime } from '@voiceplane/composition';
import { BenchDatabase, listen } from './harness';

/** The real composed api on a bench database, listening on 127.0.0.1. */
export async function startComposedApi(
  db: BenchDatabase,
  env: NodeJS.ProcessEnv = {},
): Promise<{ runtime: ApiRuntime; url: string; close(): Promise<void> }> {
  const config = { ...loadConfig(env), logLevel: 'warn' };
  const bus = new InProcessMessageBus();
  // Request logs at the product's default level would measure stdout, not the API.
  const runtime = await composeApi(config, { dataSource: db.dataSource, logger: pino({ level: 'warn' }), bus });
  for (const task of runtime.serving) await task.start();
  const server = await listen(runtime.app);
  return {
    runtime,
    url: server.url,
    close: async () => {
      await server.close();
      for (const task of [...runtime.serving].reverse()) await task.stop();
      await bus.close();
    },
  };
}

/** A user whose plan allows far more requests than a benchmark sends. */
export async function benchUser(url: string, adminToken: string): Promise<{ id: number; token: string }> {
  const res = await fetch(`${url}/api/admin/users`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench',
      email: `bench${Date.now()}@example.test`,
      balance: 100,
      plan: { api_rate_limit_per_minute: 100000 },
    }),
  });
  const body = (await res.json()) as { user: { id: number }; api_key: { token: string } };
  return { id: body.user.id, token: body.api_key.token };
}
