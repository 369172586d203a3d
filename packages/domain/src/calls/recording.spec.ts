import { callIdOfRecordingPath, recordingMediaKey, recordingUrlOf } from './recording';

describe('call recording places', () => {
  it('derives the media key and the public address from the call id alone', () => {
    expect(recordingMediaKey(4812)).toBe('callrec_4812.ogg');
    expect(recordingUrlOf('https://vp.example.com/', 4812)).toBe(
      'https://vp.example.com/api/user/calls/4812/recording',
    );
  });

  it('reads the call back from an uploaded path, and nothing else', () => {
    expect(callIdOfRecordingPath('chatapp-media/callrec_4812.ogg')).toBe(4812);
    expect(callIdOfRecordingPath('callrec_7.ogg')).toBe(7);
    for (const other of [
      'exports/meeting.ogg',
      'chatapp-media/callrec_0.ogg',
      'callrec_12.mp4',
      'x/callrec_12.ogg.tmp',
      'notcallrec_12.ogg',
      '',
    ]) {
      expect(callIdOfRecordingPath(other)).toBeNull();
    }
  });
});
