import { CallerLine } from '@voiceplane/domain';
import { CallToPlace, VoiceRuntime } from '@voiceplane/application';
import { copy } from './copy';

/** Takes every call and remembers it; `refuseNext` makes the next hand-over fail as a real runtime's refusal does. */
export class RecordingVoiceRuntime implements VoiceRuntime {
  readonly placed: CallToPlace[] = [];
  private refusals = 0;

  constructor(readonly platformLine: CallerLine | null) {}

  refuseNext(count = 1): void {
    this.refusals += count;
  }

  async placeCall(call: CallToPlace): Promise<void> {
    if (this.refusals > 0) {
      this.refusals -= 1;
      throw new Error('the voice runtime refused the call');
    }
    this.placed.push(copy(call));
  }
}
