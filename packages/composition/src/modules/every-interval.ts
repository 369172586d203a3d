import type { BackgroundTask } from './module';

/**
 * How often the embedded default (no DATABASE_URL) runs a safety poll that a shared server runs
 * once a minute. There every writer is in this one process and wakes the work it makes directly,
 * so the polls only catch what a stalled loop or a previous process left behind — settled a few
 * minutes later instead of one, nothing left for good — and each costs PGlite ≈ 0.1–0.3 s of CPU:
 * at once a minute, an idle embedded server spent 0.2–0.7 % of a core on them.
 */
export const EMBEDDED_SAFETY_POLL_MS = 5 * 60_000;

/** `everyMs`, or EMBEDDED_SAFETY_POLL_MS when the database is embedded (`databaseUrl` null). */
export function safetyPollMs(config: { readonly databaseUrl: string | null }, everyMs: number): number {
  return config.databaseUrl === null ? Math.max(everyMs, EMBEDDED_SAFETY_POLL_MS) : everyMs;
}

/** A task that runs `work` every `intervalMs` (never twice at once), logs its failures, and waits for it on stop. */
export function everyInterval(
  name: string,
  intervalMs: number,
  work: () => Promise<unknown>,
  log: { error(details: Record<string, unknown>, message: string): void },
): BackgroundTask {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = work()
      .catch((e) =>
        log.error({ task: name, error: e instanceof Error ? e.message : String(e) }, 'background task failed'),
      )
      .finally(() => (running = null));
  };
  return {
    name,
    async start() {
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
