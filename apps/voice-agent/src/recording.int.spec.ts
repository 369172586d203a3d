import { STUB_API_KEY, STUB_API_SECRET, TwirpStub } from '@voiceplane/stand-ins/livekit/twirp-stub';
import { record } from './livekit-agent';

/** Starting a call's recording against a stub of LiveKit's Twirp API on 127.0.0.1: never at the call's expense. */

let stub: TwirpStub;
beforeAll(async () => {
  stub = await TwirpStub.start();
});
afterAll(async () => stub.close());
beforeEach(() => stub.reset());

const storage = {
  bucket: 'vp-media',
  region: 'us-east-1',
  endpoint: 'http://127.0.0.1:9',
  accessKeyId: 'AK',
  secretAccessKey: 'SK',
  forcePathStyle: true,
};
const setup = () => {
  const urls: string[] = [];
  const logged: string[] = [];
  const log = {
    info: (_: object, m: string) => logged.push(`info ${m}`),
    warn: (_: object, m: string) => logged.push(`warn ${m}`),
    error: (_: object, m: string) => logged.push(`error ${m}`),
  };
  return { urls, logged, log, hold: { recording: (url: string) => void urls.push(url) } };
};
const env = (recording: { storage: typeof storage; publicBaseUrl: string } | null) => ({
  livekit: { url: stub.url, apiKey: STUB_API_KEY, apiSecret: STUB_API_SECRET },
  recording,
});

describe('recording a call', () => {
  it("starts the room egress and gives the call the product's recording address", async () => {
    stub.answer('Egress/StartRoomCompositeEgress', {
      body: { egress_id: 'EG_7', room_name: 'vp-call-abc', status: 'EGRESS_STARTING' },
    });
    const { urls, logged, log, hold } = setup();
    await record(env({ storage, publicBaseUrl: 'https://vp.example.com' }), 'vp-call-abc', 4812, hold, log);
    expect(stub.requests.map((r) => [r.method, r.body.roomName])).toEqual([
      ['Egress/StartRoomCompositeEgress', 'vp-call-abc'],
    ]);
    expect(urls).toEqual(['https://vp.example.com/api/user/calls/4812/recording']);
    expect(logged).toEqual(['info recording the call']);
  });

  it('logs a refused egress and leaves the call without a recording address', async () => {
    stub.answer('Egress/StartRoomCompositeEgress', {
      status: 503,
      body: { code: 'unavailable', msg: 'no egress available' },
    });
    const { urls, logged, log, hold } = setup();
    await record(env({ storage, publicBaseUrl: 'https://vp.example.com' }), 'vp-call-abc', 4812, hold, log);
    expect(urls).toEqual([]);
    expect(logged).toEqual(['warn the recording could not be started; the call goes on without one']);
  });

  it('without a bucket to record into, asks LiveKit nothing and says why', async () => {
    const { urls, logged, log, hold } = setup();
    await record(env(null), 'vp-call-abc', 4812, hold, log);
    expect(stub.requests).toEqual([]);
    expect(urls).toEqual([]);
    expect(logged).toEqual([expect.stringMatching(/^warn the assistant records calls, but no S3 media store/)]);
  });
});
