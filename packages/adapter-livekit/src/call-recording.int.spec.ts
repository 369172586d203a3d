import { signedWebhook, STUB_API_KEY, STUB_API_SECRET, TwirpStub } from '@voiceplane/stand-ins/livekit/twirp-stub';
import { LiveKitRecordingNotices, startCallRecording } from './call-recording';

/** Call recording through LiveKit's egress, against a stub of LiveKit's Twirp API on 127.0.0.1. */

let stub: TwirpStub;
beforeAll(async () => {
  stub = await TwirpStub.start();
});
afterAll(async () => stub.close());
beforeEach(() => stub.reset());

const storage = {
  bucket: 'vp-media',
  region: 'eu-central-1',
  endpoint: 'https://s3.example.test',
  accessKeyId: 'AKIA1',
  secretAccessKey: 's3-secret',
  forcePathStyle: true,
};
const egressEnded = (status: string, filename = 'chatapp-media/callrec_4812.ogg') => ({
  event: 'egress_ended',
  id: 'EV_1',
  createdAt: '1764180000',
  egressInfo: {
    egressId: 'EG_1',
    roomName: 'vp-call-out-4812',
    status,
    roomComposite: {
      roomName: 'vp-call-out-4812',
      audioOnly: true,
      fileOutputs: [{ fileType: 'OGG', filepath: 'chatapp-media/callrec_4812.ogg' }],
    },
    fileResults:
      status === 'EGRESS_COMPLETE'
        ? [{ filename, size: '48213', location: `https://s3.example.test/vp-media/${filename}` }]
        : [],
  },
});

describe('call recording on LiveKit', () => {
  it("starts an audio-only room composite egress that writes one OGG file into the media bucket under the call's key", async () => {
    stub.answer('Egress/StartRoomCompositeEgress', {
      body: { egress_id: 'EG_1', room_name: 'vp-call-out-4812', status: 'EGRESS_STARTING' },
    });
    const info = await startCallRecording(
      { url: stub.url, apiKey: STUB_API_KEY, apiSecret: STUB_API_SECRET },
      'vp-call-out-4812',
      4812,
      storage,
    );
    expect(info.egressId).toBe('EG_1');
    const file = {
      fileType: 'OGG',
      filepath: 'chatapp-media/callrec_4812.ogg',
      disableManifest: true,
      s3: {
        accessKey: 'AKIA1',
        secret: 's3-secret',
        region: 'eu-central-1',
        endpoint: 'https://s3.example.test',
        bucket: 'vp-media',
        forcePathStyle: true,
      },
    };
    // The SDK sends the output both in the deprecated `file` field and in `fileOutputs`, for servers old and new.
    expect(stub.requests.map((r) => [r.method, r.body])).toEqual([
      ['Egress/StartRoomCompositeEgress', { roomName: 'vp-call-out-4812', audioOnly: true, file, fileOutputs: [file] }],
    ]);
    expect(stub.requests[0].claims).toEqual(
      expect.objectContaining({ iss: STUB_API_KEY, video: expect.objectContaining({ roomRecord: true }) }),
    );
  });

  it('rejects when LiveKit refuses the egress (the caller decides what that means for the call)', async () => {
    stub.answer('Egress/StartRoomCompositeEgress', {
      status: 500,
      body: { code: 'internal', msg: 'no egress workers available' },
    });
    await expect(
      startCallRecording(
        { url: stub.url, apiKey: STUB_API_KEY, apiSecret: STUB_API_SECRET },
        'vp-call-out-4812',
        4812,
        storage,
      ),
    ).rejects.toThrow();
  });

  it("reads the end of a call recording from LiveKit's signed egress_ended webhook", async () => {
    const webhooks = new LiveKitRecordingNotices({ apiKey: STUB_API_KEY, apiSecret: STUB_API_SECRET });
    const done = signedWebhook(egressEnded('EGRESS_COMPLETE'));
    expect(await webhooks.read(done.body, done.authorization)).toEqual({ callId: 4812, stored: true });
    const failed = signedWebhook(egressEnded('EGRESS_FAILED'));
    expect(await webhooks.read(failed.body, failed.authorization)).toEqual({ callId: 4812, stored: false });
    const other = signedWebhook({ event: 'room_finished', id: 'EV_2', room: { name: 'vp-call-out-4812' } });
    expect(await webhooks.read(other.body, other.authorization)).toBeNull();
    const notOurs = signedWebhook({
      ...egressEnded('EGRESS_COMPLETE', 'exports/meeting.ogg'),
      egressInfo: { egressId: 'EG_9', status: 'EGRESS_COMPLETE', fileResults: [{ filename: 'exports/meeting.ogg' }] },
    });
    expect(await webhooks.read(notOurs.body, notOurs.authorization)).toBeNull();
  });

  it('refuses webhooks not signed with the API secret or whose body was changed', async () => {
    const webhooks = new LiveKitRecordingNotices({ apiKey: STUB_API_KEY, apiSecret: STUB_API_SECRET });
    const forged = signedWebhook(egressEnded('EGRESS_COMPLETE'), 'another-secret-that-is-long-enough-too');
    await expect(webhooks.read(forged.body, forged.authorization)).rejects.toThrow();
    const genuine = signedWebhook(egressEnded('EGRESS_FAILED'));
    await expect(
      webhooks.read(JSON.stringify(egressEnded('EGRESS_COMPLETE')), genuine.authorization),
    ).rejects.toThrow();
    await expect(webhooks.read(genuine.body, undefined)).rejects.toThrow();
  });
});
