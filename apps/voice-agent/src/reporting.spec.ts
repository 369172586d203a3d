import { RecordingStub } from '@voiceplane/stand-ins/stubs/recording-stub';
import { CallReporter } from './call-reporter';
import { ControlPlane, ControlPlaneError } from './control-plane';
import { readAgentEnv } from './env';
import { SilenceWatch } from './silence';

let stub: RecordingStub;
beforeAll(async () => {
  stub = await RecordingStub.start({ status: 200, body: { ok: true } });
});
afterAll(async () => stub.close());
beforeEach(() => stub.reset());

const fast = { attempts: 3, firstDelayMs: 5, timeoutMs: 2000 };
const plane = () => new ControlPlane(stub.baseUrl.replace(/\/$/, ''), 'rt-token-0123456789', fast);

describe('control plane client', () => {
  it('sends the runtime token, retries 5xx and 429 with backoff, and gives up after the last attempt', async () => {
    stub.answer(
      { status: 503, body: { message: 'Service unavailable.' } },
      { status: 429, body: { message: 'Too Many Attempts.' } },
      { status: 200, body: { call_id: 7, config: { direction: 'outbound' } } },
    );
    expect(await plane().callConfig(7)).toEqual({ direction: 'outbound' });
    expect(stub.requests.map((r) => [r.method, r.path, r.authorization])).toEqual(
      Array(3).fill(['GET', '/api/runtime/calls/7/config', 'Bearer rt-token-0123456789']),
    );

    stub.reset();
    stub.answer(...Array(3).fill({ status: 500, body: { message: 'Server error.' } }));
    await expect(plane().callConfig(7)).rejects.toEqual(
      new ControlPlaneError(500, { message: 'Server error.' }, 'GET /api/runtime/calls/7/config'),
    );
    expect(stub.requests).toHaveLength(3);
  });

  it('takes any other answer as final; a refused tool call becomes a failed result the model can read', async () => {
    stub.answer({ status: 404, body: { message: 'Call not found' } });
    await expect(plane().callConfig(8)).rejects.toBeInstanceOf(ControlPlaneError);
    expect(stub.requests).toHaveLength(1);

    stub.answer({ status: 409, body: { message: 'Call already ended.' } });
    expect(await plane().callTool({ call_id: 8, tool_id: 1, params: {}, invocation_id: '8:call_1' })).toEqual({
      ok: false,
      error: 'tool_unavailable',
      content: '{"error":"tool_unavailable","status":409}',
    });
  });

  it('retries when nothing answers at all', async () => {
    const dead = new ControlPlane('http://127.0.0.1:9', 'rt-token-0123456789', {
      attempts: 2,
      firstDelayMs: 5,
      timeoutMs: 500,
    });
    await expect(dead.callConfig(1)).rejects.toThrow();
  });
});

describe('call reporter', () => {
  it('reports in order with ids derived from the occurrence, so replays are duplicates; ended once, with the whole transcript', async () => {
    let now = new Date('2026-11-26T10:00:00.000Z');
    const reporter = new CallReporter(42, plane(), { now: () => now });
    await reporter.answered();
    await reporter.answered();
    now = new Date('2026-11-26T10:00:05.000Z');
    void reporter.said('assistant', ' Hello! ');
    void reporter.said('customer', '   ');
    void reporter.said('customer', 'Hi there', new Date('2026-11-26T10:00:06.000Z'));
    now = new Date('2026-11-26T10:01:10.400Z');
    void reporter.ended({ status: 'completed', reason: 'customer_hangup' });
    await reporter.ended({ status: 'failed', reason: 'provider_error' });
    await reporter.said('assistant', 'too late');
    const sent = stub.requests.map((r) => ({ path: r.path, ...JSON.parse(r.body) }));
    expect(sent.map((e) => [e.path, e.event_id, e.type])).toEqual([
      ['/api/runtime/calls/42/events', 'agent-answered', 'answered'],
      ['/api/runtime/calls/42/events', 'agent-transcript-1', 'transcript'],
      ['/api/runtime/calls/42/events', 'agent-transcript-2', 'transcript'],
      ['/api/runtime/calls/42/events', 'agent-ended', 'ended'],
    ]);
    expect(sent[0].occurred_at).toBe('2026-11-26T10:00:00.000Z');
    expect(sent[2].data).toEqual({
      items: [{ role: 'customer', content: 'Hi there', at: '2026-11-26T10:00:06.000Z' }],
    });
    expect(sent[3].data).toEqual({
      status: 'completed',
      duration: 70,
      ended_reason: 'customer_hangup',
      transcript: [
        { role: 'assistant', content: 'Hello!', at: '2026-11-26T10:00:05.000Z' },
        { role: 'customer', content: 'Hi there', at: '2026-11-26T10:00:06.000Z' },
      ],
    });
  });

  it('a report that cannot be delivered is logged and does not stop the next ones', async () => {
    stub.answer({ status: 422, body: { message: 'The given data was invalid.' } });
    const failed: string[] = [];
    const reporter = new CallReporter(43, plane(), { now: () => new Date() }, (event) => failed.push(event.event_id));
    await reporter.ringing();
    await reporter.ended({ status: 'no-answer', reason: 'no_answer', recordingUrl: null });
    expect(failed).toEqual(['agent-ringing']);
    expect(JSON.parse(stub.requests[1].body).data).toEqual({
      status: 'no-answer',
      duration: 0,
      transcript: [],
      ended_reason: 'no_answer',
    });
  });
});

describe('silence rules', () => {
  const limits = { maxSilenceS: 30, maxInitialSilenceS: null, reengagementIntervalS: 10 };
  const s = (seconds: number) => seconds * 1000;

  it('reengages every interval of silence, ends after max_silence_duration; its own reengagement is not conversation', () => {
    const watch = new SilenceWatch(limits, 0);
    expect(watch.tick(s(9))).toBe('none');
    expect(watch.tick(s(10))).toBe('reengage');
    watch.assistantSpeaking(s(10), true);
    watch.assistantSpeaking(s(12), false);
    expect(watch.tick(s(19))).toBe('none');
    expect(watch.tick(s(20))).toBe('reengage');
    expect(watch.tick(s(30))).toBe('end');
  });

  it('speech resets the clock and nothing fires while someone speaks', () => {
    const watch = new SilenceWatch(limits, 0);
    watch.customerSpeaking(s(5), true);
    expect(watch.tick(s(100))).toBe('none');
    watch.customerSpeaking(s(100), false);
    expect(watch.tick(s(109))).toBe('none');
    expect(watch.tick(s(110))).toBe('reengage');
    watch.assistantSpeaking(s(111), true);
    watch.customerSpeaking(s(112), true);
    watch.customerSpeaking(s(113), false);
    watch.assistantSpeaking(s(115), false);
    expect(watch.tick(s(124))).toBe('none');
    expect(watch.tick(s(125))).toBe('reengage');
  });

  it('max_initial_silence_duration ends a call whose customer never says a word', () => {
    const watch = new SilenceWatch({ ...limits, maxInitialSilenceS: 5 }, 0);
    expect(watch.tick(s(4))).toBe('none');
    expect(watch.tick(s(5))).toBe('end');
    const spoke = new SilenceWatch({ ...limits, maxInitialSilenceS: 5 }, 0);
    spoke.customerSpeaking(s(1), true);
    spoke.customerSpeaking(s(2), false);
    expect(spoke.tick(s(6))).toBe('none');
  });
});

describe('environment', () => {
  const base = {
    LIVEKIT_URL: 'wss://x.livekit.cloud',
    LIVEKIT_API_KEY: 'APIkey',
    LIVEKIT_API_SECRET: 'secret',
    CONTROL_PLANE_URL: 'http://api:3000/',
    RUNTIME_TOKEN: 'rt',
  };

  it('lists every missing required setting at once', () => {
    expect(readAgentEnv({ CONTROL_PLANE_URL: 'ftp://x' })).toEqual({
      ok: false,
      problems: [
        'LIVEKIT_URL is not set',
        'LIVEKIT_API_KEY is not set',
        'LIVEKIT_API_SECRET is not set',
        'RUNTIME_TOKEN is not set',
        'CONTROL_PLANE_URL must be an http(s) URL',
      ],
    });
  });

  it("names the missing provider keys, defaults the agent name to the control plane's dispatch name", () => {
    const check = readAgentEnv({ ...base, OPENAI_API_KEY: 'sk', DEEPGRAM_API_KEY: ' ' });
    expect(check).toEqual({
      ok: true,
      missingProviderKeys: ['DEEPGRAM_API_KEY', 'ELEVEN_API_KEY', 'CARTESIA_API_KEY'],
      env: expect.objectContaining({
        agentName: 'voiceplane-assistant',
        controlPlaneUrl: 'http://api:3000',
        keys: { deepgram: null, elevenlabs: null, cartesia: null, openai: 'sk' },
        openaiBaseUrl: null,
        outboundTrunkId: null,
      }),
    });
    expect(readAgentEnv({ ...base, LIVEKIT_AGENT_NAME: 'custom' })).toEqual(
      expect.objectContaining({ env: expect.objectContaining({ agentName: 'custom' }) }),
    );
  });

  it("takes other provider addresses (regional, self-hosted, stand-ins); unset: the plugins' defaults", () => {
    expect(readAgentEnv(base)).toEqual(
      expect.objectContaining({
        env: expect.objectContaining({ baseUrls: { deepgram: null, elevenlabs: null, cartesia: null } }),
      }),
    );
    const urls = {
      DEEPGRAM_BASE_URL: 'wss://api.eu.deepgram.com',
      ELEVENLABS_BASE_URL: 'https://api.eu.residency.elevenlabs.io/v1',
      CARTESIA_BASE_URL: 'http://127.0.0.1:9000',
    };
    expect(readAgentEnv({ ...base, ...urls })).toEqual(
      expect.objectContaining({
        env: expect.objectContaining({
          baseUrls: {
            deepgram: 'wss://api.eu.deepgram.com',
            elevenlabs: 'https://api.eu.residency.elevenlabs.io/v1',
            cartesia: 'http://127.0.0.1:9000',
          },
        }),
      }),
    );
  });

  it("records into the control plane's S3 media store only when it has one and the public address", () => {
    expect(readAgentEnv(base)).toEqual(expect.objectContaining({ env: expect.objectContaining({ recording: null }) }));
    const s3 = {
      MEDIA_STORE: 's3',
      S3_BUCKET: 'vp-media',
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY_ID: 'AK',
      S3_SECRET_ACCESS_KEY: 'SK',
    };
    expect(readAgentEnv({ ...base, ...s3 })).toEqual(
      expect.objectContaining({ env: expect.objectContaining({ recording: null }) }),
    );
    expect(readAgentEnv({ ...base, ...s3, PUBLIC_BASE_URL: 'https://vp.example.com/' })).toEqual(
      expect.objectContaining({
        env: expect.objectContaining({
          recording: {
            publicBaseUrl: 'https://vp.example.com',
            storage: {
              bucket: 'vp-media',
              region: 'us-east-1',
              endpoint: 'http://minio:9000',
              accessKeyId: 'AK',
              secretAccessKey: 'SK',
              forcePathStyle: true,
            },
          },
        }),
      }),
    );
    expect(readAgentEnv({ ...base, ...s3, MEDIA_STORE: 'files', PUBLIC_BASE_URL: 'https://vp.example.com' })).toEqual(
      expect.objectContaining({ env: expect.objectContaining({ recording: null }) }),
    );
  });
});
