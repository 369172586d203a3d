/**
 * @jest-environment ./testing/stand-ins/voice-agent/jest-environment.js
 */
import { eventually } from '@voiceplane/test-env';
import { heardAfter, loopSuite, playedOut } from '@voiceplane/stand-ins/voice-agent/loop-suite';

/**
 * The time rules and the failures of a call, heard in the audio loop (see `audio-loop.int.spec.ts`):
 * silence on the clock, a dead line, and providers that close mid-utterance, answer garbage or
 * never answer. A call never stays open and silent.
 */
const s = loopSuite();
const APOLOGY = 'I am sorry, we are having a technical problem and have to end this call. Please try again later.';
/** What the synthesizer was asked to say, in order, as one text. */
const spokenTexts = () =>
  s.providers.elevenlabs
    .messages<{ text?: string }>()
    .map((m) => m.text?.trim())
    .filter(Boolean)
    .join(' ');

describe('time rules in the audio loop', () => {
  it('ends silence_timeout when the customer says nothing for max_initial_silence_duration', async () => {
    const { hold, answeredAt, callId } = await s.answered({
      initial_message: 'Hello?',
      max_initial_silence_duration: 2,
    });
    expect(await hold.ended).toEqual({ status: 'completed', reason: 'silence_timeout' });
    expect(Date.now() - answeredAt).toBeGreaterThanOrEqual(2000);
    expect(await s.call(callId)).toEqual(
      expect.objectContaining({ status: 'completed', ended_reason: 'silence_timeout' }),
    );
  });

  it('speaks up after reengagement_interval with the prompt, then ends after max_silence_duration', async () => {
    s.providers.deepgram.transcripts = ['Hello, is anybody there?'];
    s.providers.openai.play({ text: 'Hi, how can I help?' }, { text: 'Are you still there?' });
    const prompt = 'Ask the customer kindly whether they are still on the line.';
    const { customer, ear, hold, callId } = await s.answered({
      initial_message: '',
      reengagement_interval: 7,
      reengagement_prompt: prompt,
      max_silence_duration: 11,
    });
    const hello = await customer.say('hello');
    await heardAfter(ear, hello.endedAt, 'the reply');
    await playedOut(ear);
    const quietFrom = ear.segments[0].endedAt;
    await eventually(async () => s.providers.openai.requests.length === 2, 'the reengagement request');
    expect(s.providers.openai.timings[1].receivedAt - quietFrom).toBeGreaterThanOrEqual(6000);
    expect(JSON.stringify(s.providers.openai.requests[1].messages)).toContain(prompt);
    await heardAfter(ear, quietFrom + 6000, 'the reengagement');
    expect(await hold.ended).toEqual({ status: 'completed', reason: 'silence_timeout' });
    expect(Date.now() - quietFrom).toBeGreaterThanOrEqual(10_000);
    expect(await s.transcript(callId)).toEqual([
      'customer: Hello, is anybody there?',
      'assistant: Hi, how can I help?',
      'assistant: Are you still there?',
    ]);
  });

  it('ends a dead line (no audio at all) silence_timeout', async () => {
    const { hold, ear } = await s.answered({ initial_message: 'Hello?', max_silence_duration: 2 }, { dead: true });
    expect(await hold.ended).toEqual({ status: 'completed', reason: 'silence_timeout' });
    expect(ear.heard.length).toBeGreaterThan(0); // the greeting still went out
  });
});

describe('provider failures in the audio loop', () => {
  /** A first exchange that works, then the failure, then the customer speaks again. */
  async function failingMidCall(fail: () => void, fields: Record<string, unknown> = {}) {
    s.providers.deepgram.transcripts = ['Hello, is anybody there?', 'Where is my order A-1001?'];
    s.providers.openai.play({ text: 'Hi, how can I help?' }, { text: 'Let me see.' });
    const call = await s.answered({ initial_message: '', ...fields });
    const hello = await call.customer.say('hello');
    await heardAfter(call.ear, hello.endedAt, 'the first reply');
    await playedOut(call.ear);
    fail();
    const failedAt = Date.now();
    void call.customer.say('where-is-my-order');
    const end = await call.hold.ended;
    return { ...call, end, failedAt, endedAfterMs: Date.now() - failedAt };
  }

  it('a transcriber that closes mid-utterance and stays down: the apology is heard, then provider_error', async () => {
    const { end, ear, failedAt, callId, line } = await failingMidCall(() => {
      s.providers.deepgram.failure = 'close';
      s.providers.deepgram.failureAfter = 'refuse';
    });
    expect(end).toEqual({ status: 'failed', reason: 'provider_error' });
    expect(ear.heardMs(failedAt)).toBeGreaterThan(1000);
    expect(spokenTexts()).toBe(`Hi, how can I help? ${APOLOGY}`);
    expect(line.actions).toEqual(['hang_up']);
    expect(await s.call(callId)).toEqual(expect.objectContaining({ status: 'failed', ended_reason: 'provider_error' }));
    expect((await s.transcript(callId)).at(-1)).toBe(`assistant: ${APOLOGY}`);
  });

  it('a transcriber that takes the audio and never answers: the apology once the customer spoke unheard, then provider_error', async () => {
    const { end } = await failingMidCall(() => {
      s.providers.deepgram.failure = 'silent';
    });
    expect(end).toEqual({ status: 'failed', reason: 'provider_error' });
    expect(spokenTexts()).toBe(`Hi, how can I help? ${APOLOGY}`);
  });

  it('a transcriber that answers garbage and then stays down: the apology, then provider_error', async () => {
    const { end } = await failingMidCall(() => {
      s.providers.deepgram.failure = 'garbage';
      s.providers.deepgram.failureAfter = 'refuse';
    });
    expect(end).toEqual({ status: 'failed', reason: 'provider_error' });
    expect(spokenTexts()).toBe(`Hi, how can I help? ${APOLOGY}`);
  });

  it("a model that never answers: the apology after the plugin's timeout, then provider_error", async () => {
    const { end, endedAfterMs } = await failingMidCall(() => {
      s.providers.openai.reset();
      s.providers.openai.play({ hang: true });
    });
    expect(end).toEqual({ status: 'failed', reason: 'provider_error' });
    expect(endedAfterMs).toBeLessThan(30_000);
    expect(spokenTexts()).toBe(`Hi, how can I help? ${APOLOGY}`);
  });

  it('a model that answers garbage: the apology, then provider_error', async () => {
    const { end } = await failingMidCall(() => {
      s.providers.openai.reset();
      s.providers.openai.play({ garbage: true });
    });
    expect(end).toEqual({ status: 'failed', reason: 'provider_error' });
    expect(spokenTexts()).toBe(`Hi, how can I help? ${APOLOGY}`);
  });

  it('a synthesizer that closes mid-utterance and stays down: provider_error without an apology (it has no voice left)', async () => {
    const { end, ear, failedAt } = await failingMidCall(() => {
      s.providers.elevenlabs.failure = 'close';
    });
    expect(end).toEqual({ status: 'failed', reason: 'provider_error' });
    expect(ear.heardMs(failedAt)).toBe(0);
  });

  it('a synthesizer that never answers, or answers garbage: provider_error, never an open silent line', async () => {
    for (const failure of ['silent', 'garbage'] as const) {
      const { end, ear, failedAt, close } = await failingMidCall(() => {
        s.providers.elevenlabs.failure = failure;
      });
      expect(end).toEqual({ status: 'failed', reason: 'provider_error' });
      expect(ear.heardMs(failedAt)).toBe(0);
      await close();
      s.providers.deepgram.reset();
      s.providers.elevenlabs.reset();
      s.providers.openai.reset();
    }
  });

  it('a Cartesia synthesizer that closes mid-utterance: provider_error', async () => {
    const { end } = await failingMidCall(
      () => {
        s.providers.cartesia.failure = 'close';
      },
      { voice_id: 3 },
    );
    expect(end).toEqual({ status: 'failed', reason: 'provider_error' });
  });
});
