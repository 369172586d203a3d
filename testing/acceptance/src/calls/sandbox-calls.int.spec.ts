import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant, getCall, ISO, makeCall } from '@voiceplane/stand-ins/calls/fixtures';

/** Sandbox controls answer and finish. */

const INVALID = 'The given data was invalid.';
const NOT_FOUND = { message: 'Not found.' };

let t: TestApi;
let owner: TestUser;
let stranger: TestUser;
let assistant: number;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser({ balance: 20 });
  stranger = await t.createUser();
  assistant = await createAssistant(t, owner, { record: true });
});
afterAll(async () => t.close());

const answer = (id: number | string, user = owner) => t.http.post(`/api/sandbox/calls/${id}/answer`).set(user.auth);
const finish = (id: number | string, body: Record<string, unknown>, user = owner) =>
  t.http.post(`/api/sandbox/calls/${id}/finish`).set(user.auth).send(body);
const transition = (from: string, to: string) => ({ message: `Invalid call transition from ${from} to ${to}.` });

describe('POST /api/sandbox/calls/{id}/answer', () => {
  it('answers a ringing call; answering again changes nothing', async () => {
    const id = await makeCall(t, owner, assistant);
    const res = await answer(id);
    expect([res.status, res.body]).toEqual([200, { ok: true, call: { id, status: 'in-progress' } }]);
    const again = await answer(id);
    expect([again.status, again.body]).toEqual([200, { ok: true, call: { id, status: 'in-progress' } }]);
    expect((await getCall(t, owner, id)).answered_at).toMatch(ISO);
  });

  it('409 on an ended call', async () => {
    const id = await makeCall(t, owner, assistant, '+15005550001');
    const res = await answer(id);
    expect([res.status, res.body]).toEqual([409, transition('busy', 'in-progress')]);
  });

  it("404 for another account's call, an unknown and a malformed id; 401 without a token", async () => {
    const id = await makeCall(t, owner, assistant);
    for (const [path, user] of [
      [id, stranger],
      [999_999, owner],
      ['abc', owner],
    ] as const) {
      const res = await answer(path, user);
      expect([path, res.status, res.body]).toEqual([path, 404, NOT_FOUND]);
    }
    expect((await getCall(t, owner, id)).status).toBe('ringing');
    expect((await t.http.post(`/api/sandbox/calls/${id}/answer`)).status).toBe(401);
  });
});

describe('POST /api/sandbox/calls/{id}/finish', () => {
  it('answers an unanswered call first when it completes; defaults: time since answer, sandbox extraction, ended reason and recording', async () => {
    const id = await makeCall(t, owner, assistant);
    const res = await finish(id, { status: 'completed' });
    expect([res.status, res.body]).toEqual([200, { ok: true, call: { id, status: 'completed' } }]);
    expect(await getCall(t, owner, id)).toEqual(
      expect.objectContaining({
        status: 'completed',
        duration: 0,
        cost: 0,
        answered_at: expect.stringMatching(ISO),
        finished_at: expect.stringMatching(ISO),
        extracted_variables: { status: true, summary: 'Sandbox call.' },
        ended_reason: 'customer_hangup',
        recording_url: expect.stringMatching(new RegExp(`^http://[^/]+/api/user/calls/${id}/recording$`)),
      }),
    );
  });

  it('stores a short WAV the recording route serves to the owner only', async () => {
    const id = await makeCall(t, owner, assistant);
    await finish(id, { status: 'completed' });
    const res = await t.http
      .get(`/api/user/calls/${id}/recording`)
      .set(owner.auth)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    const wav = res.body as Buffer;
    expect([wav.toString('ascii', 0, 4), wav.toString('ascii', 8, 12)]).toEqual(['RIFF', 'WAVE']);
    // 16-bit mono at 8 kHz: the data chunk's size says how long it plays.
    expect(wav.readUInt32LE(40) / (8_000 * 2)).toBe(2);
    expect((await t.http.get(`/api/user/calls/${id}/recording`).set(stranger.auth)).status).toBe(404);
  });

  it('records nothing for a call that never connected, and says why it ended as a real runtime would', async () => {
    const id = await makeCall(t, owner, assistant);
    await finish(id, { status: 'failed' });
    expect(await getCall(t, owner, id)).toEqual(
      expect.objectContaining({ status: 'failed', recording_url: null, ended_reason: 'provider_error' }),
    );
    expect((await t.http.get(`/api/user/calls/${id}/recording`).set(owner.auth)).status).toBe(404);
  });

  it('measures the default duration from the answer', async () => {
    const id = await makeCall(t, owner, assistant);
    await answer(id);
    // Answered 20 s ago, rather than a test waiting that long: how fast the machine then is only adds to it.
    await t.db.dataSource.query(`UPDATE calls SET answered_at = answered_at - interval '20 seconds' WHERE id = $1`, [
      id,
    ]);
    await finish(id, { status: 'completed' });
    const call = await getCall(t, owner, id);
    expect(call.duration).toBeGreaterThanOrEqual(20);
    expect(call.duration).toBeLessThan(60);
    expect(call.cost).toBe(0.1);
  });

  it('stores what finish gives: duration, transcript, extraction and recording', async () => {
    const id = await makeCall(t, owner, assistant);
    await answer(id);
    const res = await finish(id, {
      status: 'canceled',
      duration: '61',
      recording_url: 'https://media.example/r.mp3',
      extracted_variables: { status: false, summary: 'Hung up.' },
      transcript: [
        { role: 'assistant', content: 'Hello!' },
        { role: 'customer', content: 'Bye.', at: '2026-03-01T10:00:05+00:00' },
      ],
    });
    expect(res.body).toEqual({ ok: true, call: { id, status: 'canceled' } });
    const call = await getCall(t, owner, id);
    expect(call).toEqual(
      expect.objectContaining({
        status: 'canceled',
        duration: 61,
        cost: 0.2,
        recording_url: 'https://media.example/r.mp3',
        extracted_variables: { status: false, summary: 'Hung up.' },
        transcript: 'AI: Hello!\nCustomer: Bye.',
        transcript_items: [
          { role: 'assistant', content: 'Hello!', at: expect.stringMatching(ISO) },
          { role: 'customer', content: 'Bye.', at: '2026-03-01T10:00:05.000Z' },
        ],
      }),
    );
  });

  it('ends an unanswered call busy or no-answer without answering it, unrecorded', async () => {
    for (const status of ['busy', 'no-answer']) {
      const id = await makeCall(t, owner, assistant);
      expect((await finish(id, { status })).body).toEqual({ ok: true, call: { id, status } });
      expect(await getCall(t, owner, id)).toEqual(
        expect.objectContaining({ status, answered_at: null, duration: 0, recording_url: null }),
      );
    }
  });

  it('409 for transitions the call cannot make; the same end again changes nothing', async () => {
    const live = await makeCall(t, owner, assistant);
    await answer(live);
    expect((await finish(live, { status: 'busy' })).body).toEqual(transition('in-progress', 'busy'));
    const busy = await makeCall(t, owner, assistant, '+15005550001');
    const res = await finish(busy, { status: 'completed' });
    expect([res.status, res.body]).toEqual([409, transition('busy', 'completed')]);
    const again = await finish(busy, { status: 'busy' });
    expect([again.status, again.body]).toEqual([200, { ok: true, call: { id: busy, status: 'busy' } }]);
  });

  it("422 for invalid bodies; 404 for calls that are not the caller's", async () => {
    const id = await makeCall(t, owner, assistant);
    expect((await finish(id, {})).body).toEqual({
      message: INVALID,
      errors: { status: ['The status field is required.'] },
    });
    expect(
      (
        await finish(id, {
          status: 'ringing',
          duration: -5,
          recording_url: 'x',
          transcript: [{ role: 'bot', content: 'x' }],
          extracted_variables: 'x',
        })
      ).body,
    ).toEqual({
      message: INVALID,
      errors: {
        status: ['The selected status is invalid.'],
        duration: ['The duration must be at least 0.'],
        recording_url: ['The recording url must be a valid URL.'],
        'transcript.0.role': ['The selected transcript.0.role is invalid.'],
        extracted_variables: ['The extracted variables must be an object.'],
      },
    });
    expect(
      (await finish(id, { status: 'completed', transcript: [{ role: 'customer', content: 'x', at: 'later' }] })).body,
    ).toEqual({ message: INVALID, errors: { 'transcript.0.at': ['The transcript.0.at must be a valid date.'] } });
    for (const [path, user] of [
      [id, stranger],
      [999_999, owner],
      ['x', owner],
    ] as const) {
      const res = await finish(path, { status: 'completed' }, user);
      expect([path, res.status, res.body]).toEqual([path, 404, NOT_FOUND]);
    }
    expect((await getCall(t, owner, id)).status).toBe('ringing');
  });
});

describe('POST /api/sandbox/calls/{id}/say with the sandbox model', () => {
  it('answers the fixed text, and finish afterwards keeps its own extraction', async () => {
    const id = await makeCall(t, owner, assistant);
    const res = await t.http.post(`/api/sandbox/calls/${id}/say`).set(owner.auth).send({ text: 'Hello?' });
    expect([res.status, res.body]).toEqual([
      200,
      {
        ok: true,
        reply: 'Thanks for your message! (sandbox reply)',
        tool_calls: [],
        ended: false,
        call: { id, status: 'in-progress' },
      },
    ]);
    expect((await getCall(t, owner, id)).transcript).toBe(
      'Customer: Hello?\nAI: Thanks for your message! (sandbox reply)',
    );
    await finish(id, { status: 'completed' }).expect(200);
    expect((await getCall(t, owner, id)).extracted_variables).toEqual({ status: true, summary: 'Sandbox call.' });
  });
});
