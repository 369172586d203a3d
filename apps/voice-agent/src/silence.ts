/** What the silence rules ask for at a moment of the call. */
export type SilenceAction = 'none' | 'reengage' | 'end';

export interface SilenceLimits {
  readonly maxSilenceS: number;
  readonly maxInitialSilenceS: number | null;
  readonly reengagementIntervalS: number;
}

/**
 * The time rules of a quiet line, apart from any clock or room: the customer saying nothing for
 * `max_initial_silence_duration` after the answer, or nobody speaking for `max_silence_duration`,
 * ends the call; every `reengagement_interval` of silence before that, the assistant speaks up
 * once. Its own reengagement does not count as conversation, or a silent line would never end.
 */
export class SilenceWatch {
  private quietSince: number;
  private customerSpoke = false;
  private reengagements = 0;
  private speaking = 0;

  constructor(
    private readonly limits: SilenceLimits,
    private readonly answeredAt: number,
  ) {
    this.quietSince = answeredAt;
  }

  customerSpeaking(now: number, speaking: boolean): void {
    this.customerSpoke = true;
    this.reengagements = 0;
    this.track(now, speaking);
  }

  assistantSpeaking(now: number, speaking: boolean): void {
    if (this.reengagements === 0) this.track(now, speaking);
  }

  tick(now: number): SilenceAction {
    if (
      !this.customerSpoke &&
      this.limits.maxInitialSilenceS !== null &&
      now - this.answeredAt >= this.limits.maxInitialSilenceS * 1000
    )
      return 'end';
    if (this.speaking > 0) return 'none';
    const quiet = now - this.quietSince;
    if (quiet >= this.limits.maxSilenceS * 1000) return 'end';
    if (quiet >= (this.reengagements + 1) * this.limits.reengagementIntervalS * 1000) {
      this.reengagements += 1;
      return 'reengage';
    }
    return 'none';
  }

  private track(now: number, speaking: boolean): void {
    this.speaking = Math.max(0, this.speaking + (speaking ? 1 : -1));
    this.quietSince = now;
  }
}
