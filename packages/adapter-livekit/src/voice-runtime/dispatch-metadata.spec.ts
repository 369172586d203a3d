import { callIdOfDispatch, dispatchMetadataOf } from './livekit-voice-runtime';

describe('dispatch metadata: what the control plane writes is what the voice agent reads', () => {
  it('round-trips the call id; anything else names no call', () => {
    expect(callIdOfDispatch(dispatchMetadataOf({ callId: 4812, userId: 7 }))).toBe(4812);
    for (const other of [
      undefined,
      '',
      'not json',
      '{}',
      '{"voiceplane":{"call_id":"4812"}}',
      '{"voiceplane":{"call_id":-1}}',
      '{"voiceplane":{"call_id":1.5}}',
    ]) {
      expect(callIdOfDispatch(other)).toBeNull();
    }
  });
});
