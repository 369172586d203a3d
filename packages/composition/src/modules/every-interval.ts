import type { BackgroundTask } from './module';

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
