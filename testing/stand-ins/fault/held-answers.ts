import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApi, createTestDatabase, TestApi, TestDatabase } from '@voiceplane/test-env';
import { ApiProcess } from './api-process';
import { eventually } from './webhook-receiver';

/** What a built api prints when FAULT_HOLD_IDEMPOTENT_ANSWERS holds an answer after its effect committed. */
export const HELD = 'fault: an idempotent answer is held after its effect committed';

export interface CrashTestbed {
  /** A scratch database, shared by every api of the suite. */
  readonly db: TestDatabase;
  /** An in-process api on it, to prepare data and read what was made. */
  readonly api: TestApi;
  /** A built api process on the same database and data folder (ended with the suite). */
  startApi(env?: Record<string, string>): Promise<ApiProcess>;
}

/**
 * The set-up every crash test of stored answers shares. Call it inside a `describe`: it registers
 * the suite's own beforeAll and afterAll; `db` and `api` are there once beforeAll ran.
 */
export function crashTestbed(prefix: string): CrashTestbed {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const started: ApiProcess[] = [];
  let db: TestDatabase | undefined;
  let api: TestApi | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    api = await createTestApi({ db, startBackground: false });
  });
  afterAll(async () => {
    for (const child of started) await child.kill().catch(() => undefined);
    await api?.close();
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the crash testbed is used before its beforeAll ran');
    return value;
  };
  return {
    get db() {
      return ready(db);
    },
    get api() {
      return ready(api);
    },
    async startApi(env = {}) {
      const child = await ApiProcess.start({
        DATABASE_URL: ready(db).url,
        VOICEPLANE_DATA_DIR: dataDir,
        ALLOW_PRIVATE_TARGETS: '1',
        ...env,
      });
      started.push(child);
      return child;
    },
  };
}

/**
 * Sends every request to an api that holds idempotent answers, waits until each effect committed
 * and its answer is held, and SIGKILLs the api: no answer got out.
 */
export async function killWithAnswersHeld<R>(
  bed: CrashTestbed,
  requests: readonly R[],
  send: (base: string, request: R) => Promise<unknown>,
  timeoutMs = 20_000,
): Promise<void> {
  const doomed = await bed.startApi({ FAULT_HOLD_IDEMPOTENT_ANSWERS: '1' });
  const lost = requests.map((r) =>
    send(doomed.base, r).then(
      () => 'answered',
      () => 'lost',
    ),
  );
  await eventually(
    async () => doomed.output.join('').split(HELD).length - 1 === requests.length,
    'every effect to commit and its answer to be held',
    timeoutMs,
  );
  await doomed.kill();
  expect(await Promise.all(lost)).toEqual(requests.map(() => 'lost'));
}
