import { ToolCallResult } from '@voiceplane/domain';
import { ToolInvocationStart } from '@voiceplane/application';
import { createTestDatabase, TestDatabase } from '@voiceplane/test-env';
import { Database } from '../../database';
import { TypeormToolInvocationLog } from './tool-invocation-log';

/** Records written behind the runtime's answer: the log's own readers never miss one. */

let db: TestDatabase;
let database: Database;
let userId: number;

beforeAll(async () => {
  db = await createTestDatabase();
  database = new Database(db.dataSource);
  const rows = await database.query<{ id: string }>(
    `INSERT INTO users (name, email, plan) VALUES ('U', 'u@example.test', '{}') RETURNING id`,
  );
  userId = Number(rows[0].id);
});
afterAll(async () => {
  await db.close();
});

const result = (content: string): ToolCallResult => ({
  ok: true,
  statusCode: 200,
  content,
  truncated: false,
  durationMs: 12,
  error: null,
  warnings: [],
});
let seq = 0;
const start = (callId: number, invocationId: string | null = null, at = new Date()): ToolInvocationStart => ({
  id: `tcl_test${++seq}`,
  callId,
  userId,
  toolId: 7,
  name: 'check_order',
  invocationId,
  at,
});

it("lists a call's invocations as soon as record returns, oldest first", async () => {
  const log = new TypeormToolInvocationLog(database);
  const first = start(1, null, new Date('2026-03-01T10:00:00.000Z'));
  const second = start(1, null, new Date('2026-03-01T10:00:01.000Z'));
  log.record(second, result('b'));
  log.record(first, result('a'));
  log.record(start(2), result('other call'));
  expect(await log.listForCall(1, 100)).toEqual([
    {
      id: first.id,
      toolId: 7,
      name: 'check_order',
      ok: true,
      statusCode: 200,
      durationMs: 12,
      error: null,
      at: first.at,
    },
    {
      id: second.id,
      toolId: 7,
      name: 'check_order',
      ok: true,
      statusCode: 200,
      durationMs: 12,
      error: null,
      at: second.at,
    },
  ]);
  await log.flush();
});

it('holds an invocation id for one caller, completes it, and replays its result', async () => {
  const log = new TypeormToolInvocationLog(database);
  const holder = start(3, 'inv');
  expect(await log.claim(holder, new Date(0))).toEqual({ claimed: true });
  expect(await log.claim(start(3, 'inv'), new Date(0))).toEqual({ claimed: false, result: null });
  log.record(holder, result('first'));
  expect(await log.resultOf(3, 'inv')).toEqual(result('first'));
  expect(await log.claim(start(3, 'inv'), new Date(Date.now() + 60_000))).toEqual({
    claimed: false,
    result: result('first'),
  });
  expect(await log.listForCall(3, 100)).toHaveLength(1);
});

it('lets a later caller take over an id whose holder never finished', async () => {
  const log = new TypeormToolInvocationLog(database);
  const lost = start(4, 'inv', new Date(Date.now() - 60_000));
  expect(await log.claim(lost, new Date(0))).toEqual({ claimed: true });
  const retry = start(4, 'inv');
  expect(await log.claim(retry, new Date(Date.now() - 30_000))).toEqual({ claimed: true });
  log.record(retry, result('retry'));
  // The lost holder finishing late changes nothing.
  log.record(lost, result('late'));
  await log.flush();
  expect(await log.resultOf(4, 'inv')).toEqual(result('retry'));
  expect((await log.listForCall(4, 100)).map((r) => r.id)).toEqual([retry.id]);
});

it('reports a write that failed instead of throwing at the caller', async () => {
  const errors: Array<Record<string, unknown>> = [];
  const log = new TypeormToolInvocationLog(database, { error: (details) => errors.push(details) });
  const orphan = { ...start(5), userId: 999_999 };
  log.record(orphan, result('x'));
  await log.flush();
  expect(errors).toEqual([expect.objectContaining({ invocation: orphan.id, call: 5 })]);
  expect(await log.listForCall(5, 100)).toEqual([]);
});
