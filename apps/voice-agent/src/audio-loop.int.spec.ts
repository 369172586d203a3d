/**
 * @jest-environment ./testing/stand-ins/voice-agent/jest-environment.js
 */
import { eventually } from '@voiceplane/test-env';
import { heardAfter, loopSuite, playedOut } from '@voiceplane/stand-ins/voice-agent/loop-suite';
import { SPEECH_MS_PER_CHAR } from '@voiceplane/stand-ins/voice-agent/tts-stand-ins';

/**
 * Calls heard on this machine: the agent's own call code (`holdCall`, the code a LiveKit job runs)
 * with real audio frames in real time through the real Silero VAD and the real Deepgram,
 * ElevenLabs and OpenAI plugins, each against its stand-in on 127.0.0.1; the control plane is the
 * composed app over its runtime routes. Settings are short so the suite stays fast; every wait is
 * for an event.
 */
const s = loopSuite();
const LONG_REPLY =
  'Let me tell you everything about your order. It left our warehouse this morning and is on its way to you. The driver will call you before arriving. Is there anything else I can do?';

describe('the voice agent in the audio loop', () => {
  it('greets, hears the customer, runs a mid-call tool through the gateway, answers aloud and ends with end_call', async () => {
    const tool = (
      await s.t.http
        .post('/api/user/tools')
        .set(s.owner.auth)
        .send({
          name: 'check_order',
          description: 'Look up an order',
          method: 'GET',
          endpoint: s.receiver.url('/orders/{order_id}'),
          schema: [{ name: 'order_id', type: 'string', description: 'The order number', required: true }],
        })
    ).body.data.id;
    s.providers.deepgram.transcripts = ['Where is my order A-1001?', 'Thanks, bye!'];
    s.providers.openai.play(
      { toolCalls: [{ name: 'check_order', arguments: { order_id: 'A-1001' } }] },
      { text: 'Your order has shipped.' },
      { toolCalls: [{ name: 'end_call', arguments: {} }] },
    );
    const { callId, customer, ear, hold, line, answeredAt } = await s.answered({
      initial_message: 'Hello, this is Acme.',
      tool_ids: [tool],
      tools: [{ type: 'end_call', description: 'Hang up when done' }],
    });

    expect(await heardAfter(ear, answeredAt, 'the greeting')).toBeGreaterThanOrEqual(answeredAt);
    await playedOut(ear);
    expect(ear.heardMs(0)).toBeCloseTo('Hello, this is Acme. '.length * SPEECH_MS_PER_CHAR, -2);

    const question = await customer.say('where-is-my-order');
    await heardAfter(ear, question.endedAt, 'the reply');
    expect(s.receiver.received.map((r) => r.path)).toEqual(['/orders/A-1001']);
    expect(s.providers.openai.requests[1].messages.at(-1)).toEqual(
      expect.objectContaining({ role: 'tool', content: '{"status":"shipped"}' }),
    );
    await playedOut(ear, 2);

    await customer.say('thanks-bye');
    expect(await hold.ended).toEqual({ status: 'completed', reason: 'assistant_ended' });
    expect(line.actions).toEqual(['hang_up']);
    expect(await s.call(callId)).toEqual(
      expect.objectContaining({ status: 'completed', ended_reason: 'assistant_ended' }),
    );
    expect(await s.transcript(callId)).toEqual([
      'assistant: Hello, this is Acme.',
      'customer: Where is my order A-1001?',
      'assistant: Your order has shipped.',
      'customer: Thanks, bye!',
    ]);
    // What the stand-ins heard: one utterance per fixture, and the spoken texts on the synthesizer's wire.
    expect(s.providers.deepgram.utterances.map((u) => u.transcript)).toEqual([
      'Where is my order A-1001?',
      'Thanks, bye!',
    ]);
    expect(
      s.providers.elevenlabs
        .messages<{ text?: string }>()
        .map((m) => m.text?.trim())
        .filter(Boolean),
    ).toEqual(['Hello, this is Acme.', 'Your order has shipped.']);
  });

  it('says nothing first when the assistant waits for the customer', async () => {
    s.providers.deepgram.transcripts = ['Hello, is anybody there?'];
    s.providers.openai.play({ text: 'Yes, I am here.' });
    const { customer, ear } = await s.answered({ initial_message: 'Hello, this is Acme.', wait_for_customer: true });
    const hello = await customer.say('hello');
    expect(ear.heard).toEqual([]); // nothing before the customer spoke
    await heardAfter(ear, hello.endedAt, 'the reply');
    expect(
      s.providers.elevenlabs
        .messages<{ text?: string }>()
        .map((m) => m.text?.trim())
        .filter(Boolean),
    ).toEqual(['Yes, I am here.']);
  });

  describe('interruptions', () => {
    /** The customer speaks up 3.5 s into a long reply (LiveKit ignores interruptions in the first 3 s of a call's audio). */
    async function speakUpDuringReply(
      fields: Record<string, unknown>,
      fixture: string,
      transcript: string,
      transcriberLatencyMs = 0,
    ) {
      s.providers.deepgram.transcripts = ['Hello, is anybody there?', transcript];
      s.providers.deepgram.latencyMs = transcriberLatencyMs;
      s.providers.openai.play({ text: LONG_REPLY });
      s.providers.openai.fallback = { text: 'Okay.' };
      const call = await s.answered({ initial_message: '', ...fields });
      const hello = await call.customer.say('hello');
      const replyAt = await heardAfter(call.ear, hello.endedAt, 'the long reply');
      await eventually(async () => Date.now() >= replyAt + 3500, 'the reply playing for 3.5 s');
      const interjection = await call.customer.say(fixture);
      await eventually(async () => call.ear.segments[0]?.finished === true, 'the long reply ends');
      return { ...call, replyAt, interjection, reply: call.ear.segments[0] };
    }
    const fullReplyMs = `${LONG_REPLY} `.length * SPEECH_MS_PER_CHAR;

    it("stop the assistant's audio when allowed", async () => {
      const { reply, interjection } = await speakUpDuringReply(
        { allow_interruptions: true },
        'stop',
        'Stop, please wait a moment.',
      );
      expect(reply.interrupted).toBe(true);
      expect(reply.start + 3500 + reply.pushedMs).toBeGreaterThan(interjection.endedAt); // there was audio left to cut
      expect(reply.pushedMs).toBeGreaterThan(0);
    });

    it('do not stop it when allow_interruptions is false', async () => {
      const { reply, ear } = await speakUpDuringReply(
        { allow_interruptions: false },
        'stop',
        'Stop, please wait a moment.',
      );
      expect(reply.interrupted).toBe(false);
      expect(ear.heardMs(reply.start, reply.start + fullReplyMs + 1000)).toBeGreaterThanOrEqual(fullReplyMs - 100);
    });

    it('need min_interrupt_words words: one word does not interrupt', async () => {
      const { reply } = await speakUpDuringReply(
        { allow_interruptions: true, min_interrupt_words: 3, interrupt_sensitivity: 5 },
        'yes',
        'Yes.',
      );
      expect(reply.interrupted).toBe(false);
    });

    it('take interrupt_sensitivity as how long the voice alone must last: a short word cuts the reply at once at 5 (167 ms), only with its transcript at 0 (1 s)', async () => {
      const cutBy = async (sensitivity: number) => {
        const call = await speakUpDuringReply(
          { allow_interruptions: true, interrupt_sensitivity: sensitivity },
          'yes',
          'Yes.',
          700,
        );
        await eventually(
          async () => s.providers.deepgram.utterances[1]?.finalAt !== undefined,
          'the transcript of the word',
        );
        const final = s.providers.deepgram.utterances[1].finalAt!;
        await call.close();
        s.providers.deepgram.reset();
        s.providers.openai.reset();
        return { interrupted: call.reply.interrupted, beforeTranscript: call.reply.endedAt < final };
      };
      expect(await cutBy(5)).toEqual({ interrupted: true, beforeTranscript: true });
      expect(await cutBy(0)).toEqual({ interrupted: true, beforeTranscript: false });
    });
  });

  it('says a filler while a slow mid-call tool runs', async () => {
    s.receiver.respondWith(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"status":"shipped"}',
      delayMs: 2500,
    }));
    const tool = (
      await s.t.http
        .post('/api/user/tools')
        .set(s.owner.auth)
        .send({
          name: 'slow_lookup',
          description: 'Look up an order',
          method: 'GET',
          endpoint: s.receiver.url('/slow'),
          schema: [],
        })
    ).body.data.id;
    s.providers.deepgram.transcripts = ['Where is my order A-1001?'];
    s.providers.openai.play({ toolCalls: [{ name: 'slow_lookup', arguments: {} }] }, { text: 'It has shipped.' });
    const { customer, ear } = await s.answered({
      initial_message: '',
      tool_ids: [tool],
      fillers: true,
      filler_config: { neutral: ['One moment please.'], positive: [] },
    });
    const question = await customer.say('where-is-my-order');
    await eventually(async () => s.receiver.received.length === 1, 'the tool request');
    const toolStarted = Date.now();
    await eventually(async () => ear.heard.length > 0, 'the filler');
    expect(ear.heard[0].at).toBeLessThan(toolStarted + 2500); // heard while the tool still ran
    expect(ear.heard[0].at).toBeGreaterThan(question.endedAt);
    await playedOut(ear, 2);
    expect(
      s.providers.elevenlabs
        .messages<{ text?: string }>()
        .map((m) => m.text?.trim())
        .filter(Boolean),
    ).toEqual(['One moment please.', 'It has shipped.']);
    s.receiver.respondWith(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"status":"shipped"}',
    }));
  });

  it("hands over to another assistant, whose voice speaks next on the synthesizer's wire", async () => {
    const noah = (
      await s.t.http
        .post('/api/user/assistant')
        .set(s.owner.auth)
        .send({ name: 'Billing', system_prompt: 'You do billing.', voice_id: 2, initial_message: 'Billing here.' })
    ).body.data.id;
    s.providers.deepgram.transcripts = ['I have a question about my bill.'];
    s.providers.openai.play({ toolCalls: [{ name: 'assistant_transfer', arguments: {} }] });
    const { customer, ear, callId } = await s.answered({
      initial_message: '',
      voice_id: 1,
      tools: [
        { type: 'assistant_transfer', assistant_id: noah, message_before_transfer: 'Connecting you to billing.' },
      ],
    });
    const question = await customer.say('billing-question');
    await heardAfter(ear, question.endedAt, 'the hand-over message');
    await eventually(
      async () => (await s.transcript(callId)).includes('assistant: Billing here.'),
      'the new assistant greets',
    );
    await playedOut(ear, 2);
    const spoken = s.providers.elevenlabs.received.filter(
      (r) =>
        typeof (r.message as { text?: string }).text === 'string' && (r.message as { text: string }).text.trim() !== '',
    );
    const voiceOf = (connection: number) => s.providers.elevenlabs.voiceIds()[connection - 1];
    expect(spoken.map((r) => `${voiceOf(r.connection)}: ${(r.message as { text: string }).text.trim()}`)).toEqual([
      '21m00Tcm4TlvDq8ikWAM: Connecting you to billing.',
      'pNInz6obpgDQGcFmaJgB: Billing here.',
    ]);
  });
});
