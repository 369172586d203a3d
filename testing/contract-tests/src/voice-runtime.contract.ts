import { CallToPlace, VoiceRuntime } from '@voiceplane/application';

export interface VoiceRuntimeSubject {
  readonly runtime: VoiceRuntime;
  /** A call the runtime may be handed: stored wherever the adapter needs it, leaving from a line it can carry. */
  callToPlace(): Promise<CallToPlace>;
  /** The calls the runtime holds now (it took them and is ringing or running them), by call id. */
  held(): Promise<number[]>;
  /** The runtime refuses the next hand-over of this call. */
  refuseNext(call: CallToPlace): void;
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/**
 * What MakeCall relies on from any VoiceRuntime: `placeCall` resolves only once the runtime took
 * the call (it then holds it, under the call's id), and throws when it refused, holding nothing of
 * it — so the caller can fail the call and release its reservation without a call running
 * unbilled. The platform line, when there is one, is a number calls can leave from.
 */
export function voiceRuntimeContract(name: string, makeSubject: () => Promise<VoiceRuntimeSubject>): void {
  describe(`VoiceRuntime contract: ${name}`, () => {
    let subject: VoiceRuntimeSubject;

    beforeEach(async () => {
      subject = await makeSubject();
    });

    it('names either no platform line or one with an E.164 number', () => {
      const line = subject.runtime.platformLine;
      if (line !== null) expect(line.phoneNumber).toMatch(/^\+[1-9]\d{6,14}$/);
    });

    it('holds every call it took, each under its own id', async () => {
      const first = await subject.callToPlace();
      const second = await subject.callToPlace();
      await subject.runtime.placeCall(first);
      await subject.runtime.placeCall(second);
      expect(sorted(await subject.held())).toEqual(sorted([first.callId, second.callId]));
    });

    it('throws when it refuses a call and holds nothing of it; the next call is taken again', async () => {
      const refused = await subject.callToPlace();
      subject.refuseNext(refused);
      await expect(subject.runtime.placeCall(refused)).rejects.toThrow();
      expect(await subject.held()).toEqual([]);

      const next = await subject.callToPlace();
      await subject.runtime.placeCall(next);
      expect(await subject.held()).toEqual([next.callId]);
    });
  });
}
