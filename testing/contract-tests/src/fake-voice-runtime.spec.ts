import { RecordingVoiceRuntime } from '@voiceplane/adapter-fakes';
import { voiceRuntimeContract } from './voice-runtime.contract';

voiceRuntimeContract('in-memory fake', async () => {
  const runtime = new RecordingVoiceRuntime({ phoneNumberId: null, phoneNumber: '+15550000000', sip: null });
  let callId = 0;
  return {
    runtime,
    callToPlace: async () => ({
      callId: ++callId,
      userId: 7,
      customerPhone: '+14155551234',
      ringingTimeSeconds: 25,
      maxDurationSeconds: 600,
      line: { phoneNumberId: null, phoneNumber: '+15550000000', sip: null },
    }),
    held: async () => runtime.placed.map((c) => c.callId),
    refuseNext: () => runtime.refuseNext(),
  };
});
