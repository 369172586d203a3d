/**
 * Wakes one waiting loop early. A ring while nobody waits is remembered, so a notification that
 * arrives between two waits is not lost.
 */
export class Doorbell {
  private rung = false;
  private wake?: () => void;

  ring(): void {
    this.rung = true;
    this.wake?.();
  }

  /** Resolves at the next ring (or at once if one is pending) or after `timeoutMs`. */
  wait(timeoutMs: number): Promise<void> {
    if (this.rung) {
      this.rung = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        this.rung = false;
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.wake = done;
    });
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
