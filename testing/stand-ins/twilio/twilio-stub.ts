import { RecordingStub, StubAnswer, StubRequest } from '../stubs/recording-stub';

/** A stub of Twilio's 2010-04-01 REST API on 127.0.0.1 (see RecordingStub). */

export type TwilioRequest = StubRequest;
export type TwilioAnswer = StubAnswer;
export type TwilioStub = RecordingStub;

export const TwilioStub = {
  start: (): Promise<RecordingStub> =>
    RecordingStub.start({ status: 500, body: { code: 20500, message: 'no stub answer' } }),
};

export const STUB_ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef';
export const STUB_AUTH_TOKEN = 'auth-token';
