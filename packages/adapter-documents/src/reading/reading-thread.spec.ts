import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { DEFAULT_READING, ReadingThread } from './reading-thread';
import { docxExpandingTo, docxWithParagraphs } from '../../test-support/fixtures';

const MB = 1024 * 1024;

/** The longest the event loop was held while `work` ran, sampled every 5 ms. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    const value = await work();
    return { value, stallMs };
  } finally {
    clearInterval(tick);
  }
}

describe('reading documents on a thread of their own', () => {
  const thread = new ReadingThread();
  afterAll(() => thread.close());

  it('cuts an upload into passages and counts its text', async () => {
    const got = await thread.passages({
      kind: 'file',
      fileKind: 'docx',
      bytes: await docxWithParagraphs(['Opening hours', 'Monday to Friday, 9 to 18.']),
    });
    expect(got).toEqual({
      ok: true,
      value: { passages: ['Opening hours\n\nMonday to Friday, 9 to 18.'], sizeBytes: 43 },
    });
  });

  it('counts the tasks in hand and waiting', async () => {
    const both = [thread.passages({ kind: 'text', text: 'One.' }), thread.passages({ kind: 'text', text: 'Two.' })];
    expect(thread.backlog()).toBe(2);
    await Promise.all(both);
    expect(thread.backlog()).toBe(0);
  });

  it('drops the NUL bytes of a text file rather than failing on them', async () => {
    const got = await thread.passages({
      kind: 'file',
      fileKind: 'txt',
      bytes: Buffer.from('Open\u0000 on Sundays.\u0000\u0000'),
    });
    expect(got).toEqual({ ok: true, value: { passages: ['Open on Sundays.'], sizeBytes: 16 } });
  });

  it('reads 10 MB of text into passages while the event loop keeps turning', async () => {
    const bytes = Buffer.from(
      'All work and no play makes Jack a dull boy. '.repeat(Math.floor((10 * 1000 * 1000) / 44)),
    );
    const { value, stallMs } = await longestStall(() => thread.passages({ kind: 'file', fileKind: 'txt', bytes }));
    expect(value.ok && value.value.passages.length).toBeGreaterThan(8_000);
    // Cutting it on the event loop held it for seconds; handing 10 MB over and back is a few ms.
    expect(stallMs).toBeLessThan(2_000);
  });

  it.each([[40], [300]])(
    'fails a DOCX unpacking to %i MB before building its text, the event loop free meanwhile',
    async (mb) => {
      const docx = await docxExpandingTo(mb * MB);
      expect(docx.length).toBeLessThan(mb * 5 * 1024);
      const { value, stallMs } = await longestStall(() =>
        thread.passages({ kind: 'file', fileKind: 'docx', bytes: docx }),
      );
      expect(value).toEqual({ ok: false, error: 'The file unpacks to more than 32 MB; split it into smaller files.' });
      expect(stallMs).toBeLessThan(2_000);
    },
  );

  it('ends a task past its deadline, failing it with the reason, and reads the next one on a new thread', async () => {
    const hurried = new ReadingThread({ ...DEFAULT_READING, deadlineMs: 1 });
    try {
      const text = 'word '.repeat(2 * MB);
      expect(await hurried.passages({ kind: 'text', text })).toEqual({
        ok: false,
        error: 'Reading the document took longer than 20 s; split it into smaller files.',
      });
    } finally {
      await hurried.close();
    }
    expect(await thread.passages({ kind: 'text', text: 'Still reading.' })).toEqual({
      ok: true,
      value: { passages: ['Still reading.'], sizeBytes: 14 },
    });
  });

  // V8 lets a process-wide --max-old-space-size (Jest's runner sets one) replace every thread's own heap
  // limit, so the limit is checked in a plain node process, as the api runs: compiled, without that flag.
  it('fails a task that needs more memory than the thread has, and the thread after it reads again', () => {
    const script = `
      const { ReadingThread, DEFAULT_READING } = require(${JSON.stringify(join(__dirname, '..', '..', 'dist', 'reading', 'reading-thread.js'))});
      // The thread never keeps a process alive on its own (the api's server does): this timer does.
      const alive = setInterval(() => {}, 1000);
      (async () => {
        const small = new ReadingThread({ ...DEFAULT_READING, maxHeapMb: 16 });
        // A page's tree costs many times its text (an object per element): 8 MB of markup cannot fit in 16 MB.
        const big = await small.page('<p><b>x</b></p>'.repeat(${MB / 2}), 'https://example.com/', null);
        const after = await small.passages({ kind: 'text', text: 'Small enough.' });
        await small.close();
        process.stdout.write(JSON.stringify({ big, after }));
        clearInterval(alive);
      })();`;
    const env = { ...process.env, NODE_OPTIONS: '' };
    const out = execFileSync(process.execPath, ['-e', script], { env, encoding: 'utf8', maxBuffer: 64 * MB });
    expect(JSON.parse(out)).toEqual({
      big: {
        ok: false,
        error: 'Reading the document needed more memory than a document may use; split it into smaller files.',
      },
      after: { ok: true, value: { passages: ['Small enough.'], sizeBytes: 13 } },
    });
  });
});
