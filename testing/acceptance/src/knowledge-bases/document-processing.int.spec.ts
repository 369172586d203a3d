import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApi, eventually, TestApi, TestUser } from '@voiceplane/test-env';
import { docxExpandingTo } from '@voiceplane/adapter-documents/test-support/fixtures';

/**
 * Documents that used to hold the api's event loop (a DOCX unpacking to 40 or 300 MB, 10 MB of
 * text) or never finish (NUL bytes): each ends `ready` or `failed` with its reason while
 * `/api/health`, asked again and again over a real socket, keeps answering.
 */

const MB = 1024 * 1024;
/**
 * The product aims at a health p99 of 200 ms. A file gives a few dozen answers, where a p99 is the
 * slowest one or two — a second maximum, which one scheduling stall on a shared 2-core CI machine
 * decides. So the file holds the p90 (repeated holds of the loop) and the maximum (one long hold);
 * the old code held the loop for 3 to 100 s with these files.
 */
const HEALTH_P90_MS = 600;
/** A single stall hides in a percentile: the old code held the loop once, for seconds. */
const HEALTH_MAX_MS = 2_000;

let t: TestApi;
let user: TestUser;
let server: Server;
let base: string;

beforeAll(async () => {
  t = await createTestApi();
  user = await t.createUser({ plan: { max_knowledge_base_bytes: 500 * MB } });
  server = createServer(t.runtime.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

interface Measured {
  readonly document: { status: string; failure_reason: string | null; size_bytes: number; chunks_count: number };
  readonly p90: number;
  readonly max: number;
}

/** Uploads the file and asks for health until the document has left `processing`; the p90 and slowest of those answers. */
async function uploadWhileAskingHealth(file: Buffer, fileName: string): Promise<Measured> {
  const kb = await t.http.post('/api/user/knowledgebases').set(user.auth).send({ name: fileName });
  expect(kb.status).toBe(201);
  const path = `/api/user/knowledgebases/${kb.body.data.id}/documents`;
  const added = await t.http
    .post(path)
    .set(user.auth)
    .field('name', fileName)
    .field('type', 'file')
    .attach('file', file, fileName);
  expect(added.status).toBe(201);
  const latencies: number[] = [];
  let document: Measured['document'] | undefined;
  await eventually(
    async () => {
      const started = performance.now();
      const health = await fetch(`${base}/api/health`);
      latencies.push(performance.now() - started);
      expect(health.status).toBe(200);
      const res = await fetch(`${base}${path}/${added.body.data.id}`, { headers: user.auth });
      document = ((await res.json()) as { data: Measured['document'] }).data;
      return document.status !== 'processing';
    },
    `${fileName} processed`,
    120_000,
  );
  latencies.sort((x, y) => x - y);
  if (process.env.SHOW_HEALTH_LATENCY)
    process.stdout.write(
      `${fileName}: ${latencies.length} answers, p50 ${latencies[Math.floor(latencies.length / 2)].toFixed(1)} ms, max ${latencies[latencies.length - 1].toFixed(1)} ms\n`,
    );
  return {
    document: document!,
    p90: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.9))],
    max: latencies[latencies.length - 1],
  };
}

describe('documents read off the event loop', () => {
  it.each([
    [40, 'forty.docx'],
    [300, 'three-hundred.docx'],
  ])(
    'fails a DOCX unpacking to %i MB with the reason, health answering throughout',
    async (mb, name) => {
      const got = await uploadWhileAskingHealth(await docxExpandingTo(mb * MB), name);
      expect(got.document).toMatchObject({
        status: 'failed',
        failure_reason: 'The file unpacks to more than 32 MB; split it into smaller files.',
        chunks_count: 0,
      });
      expect(got.p90).toBeLessThan(HEALTH_P90_MS);
      expect(got.max).toBeLessThan(HEALTH_MAX_MS);
    },
    180_000,
  );

  it('reads 10 MB of text into passages, health answering throughout', async () => {
    const text = Buffer.from(
      'All work and no play makes Jack a dull boy.\n'.repeat(Math.floor((10 * 1000 * 1000) / 44)),
    );
    const got = await uploadWhileAskingHealth(text, 'ten.txt');
    expect(got.document).toMatchObject({ status: 'ready', failure_reason: null, size_bytes: text.length });
    expect(got.document.chunks_count).toBeGreaterThan(8_000);
    expect(got.p90).toBeLessThan(HEALTH_P90_MS);
    expect(got.max).toBeLessThan(HEALTH_MAX_MS);
  }, 180_000);

  it('reads a text file with NUL bytes, dropping them, instead of retrying it for hours', async () => {
    const got = await uploadWhileAskingHealth(
      Buffer.from('Open\u0000 on Sundays.\u0000 Closed on Mondays.'),
      'nul.txt',
    );
    expect(got.document).toMatchObject({ status: 'ready', failure_reason: null, chunks_count: 1 });
    const res = await t.http.get(`/api/user/knowledgebases`).set(user.auth);
    expect(res.status).toBe(200);
  });
});
