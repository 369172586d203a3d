/**
 * How integration tests wait. A test waits for an event (a notification arrived, a row changed, a
 * request was received), never for an amount of time: the ceiling only bounds how long a test may
 * take to say that the event did not come. It is generous because a busy machine is slow, and it
 * costs nothing when the event comes at once. See docs/testing.md.
 */
export const WAIT_CEILING_MS = 30_000;

const LOOK_EVERY_MS = 20;

/** The thing waited for did not come within the ceiling. */
export class CeilingExceeded extends Error {
  constructor(what: string, ceilingMs: number) {
    super(`timed out after ${ceilingMs} ms waiting for ${what}`);
  }
}

/** Resolves once `condition` holds; fails naming `what` when it still does not after `ceilingMs`. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  ceilingMs = WAIT_CEILING_MS,
): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (await condition()) return;
    if (Date.now() - started > ceilingMs) throw new CeilingExceeded(what, ceilingMs);
    await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
  }
}

/** `work`'s outcome, or a failure naming `what` once `ceilingMs` has passed (the work is not cancelled). */
export async function withinCeiling<T>(work: Promise<T>, what: string, ceilingMs = WAIT_CEILING_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CeilingExceeded(what, ceilingMs)), ceilingMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves once the current clock minute has at least `roomMs` left (and began over 200 ms ago, so a
 * fixed window counted from the same clock has turned too): a burst against a per-minute limit then
 * fits in one window. Waits for the next minute when this one is nearly over.
 */
export async function roomInTheMinute(roomMs: number): Promise<void> {
  const fits = () => {
    const into = Date.now() % 60_000;
    return into >= 200 && into <= 60_000 - roomMs;
  };
  await eventually(fits, `a clock minute with ${roomMs} ms left`, 60_000 + WAIT_CEILING_MS);
}
