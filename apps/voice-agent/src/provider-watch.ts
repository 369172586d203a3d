/**
 * Providers that go quiet without an error. LiveKit's Deepgram plugin keeps a stream whose
 * websocket the server closed: it sends into the closed socket and never transcribes again. A
 * synthesizer that never answers leaves a reply waiting with no timeout. Either way the line would
 * stay open with nobody listening or nobody talking; the watch turns that into a provider failure.
 *
 * - Deaf transcriber: the VAD heard the customer speak for `deafSpeechMs` (over one or more turns)
 *   and `deafWaitMs` after that speech not one word was transcribed.
 * - Mute voice: the assistant has been thinking (a reply started, no audio yet) for `muteMs` while
 *   no tool runs. The LLM's own timeout is shorter, so a model that hangs fails as the model.
 */
export interface ProviderWatchLimits {
  readonly deafSpeechMs: number;
  readonly deafWaitMs: number;
  readonly muteMs: number;
}

export const PROVIDER_WATCH_LIMITS: ProviderWatchLimits = { deafSpeechMs: 1500, deafWaitMs: 5000, muteMs: 20_000 };

export type Silent = 'stt_error' | 'tts_error';

export class ProviderWatch {
  private speechStartedAt: number | null = null;
  /** Words came back since the current (or last) speech began: a final often arrives before the VAD's end of speech. */
  private wordsSinceSpeech = false;
  private untranscribedMs = 0;
  private deafTimer: NodeJS.Timeout | null = null;
  private muteTimer: NodeJS.Timeout | null = null;
  private thinking = false;
  private toolsRunning = 0;
  private stopped = false;

  constructor(
    private readonly limits: ProviderWatchLimits,
    private readonly failed: (what: Silent) => void,
  ) {}

  customerSpeaking(now: number, speaking: boolean): void {
    if (speaking) {
      this.speechStartedAt = now;
      this.wordsSinceSpeech = false;
      this.clear('deaf');
      return;
    }
    if (this.speechStartedAt === null) return;
    const spokeMs = now - this.speechStartedAt;
    this.speechStartedAt = null;
    if (this.wordsSinceSpeech) return;
    this.untranscribedMs += spokeMs;
    if (this.untranscribedMs >= this.limits.deafSpeechMs) this.arm('deaf', this.limits.deafWaitMs, 'stt_error');
  }

  transcribed(): void {
    this.untranscribedMs = 0;
    this.wordsSinceSpeech = true;
    this.clear('deaf');
  }

  assistantState(state: string): void {
    this.thinking = state === 'thinking';
    this.rearmMute();
  }

  toolStarted(): void {
    this.toolsRunning += 1;
    this.rearmMute();
  }

  toolFinished(): void {
    this.toolsRunning = Math.max(0, this.toolsRunning - 1);
    this.rearmMute();
  }

  stop(): void {
    this.stopped = true;
    this.clear('deaf');
    this.clear('mute');
  }

  private rearmMute(): void {
    this.clear('mute');
    if (this.thinking && this.toolsRunning === 0) this.arm('mute', this.limits.muteMs, 'tts_error');
  }

  private arm(which: 'deaf' | 'mute', ms: number, what: Silent): void {
    if (this.stopped) return;
    this.clear(which);
    const timer = setTimeout(() => {
      this.stop();
      this.failed(what);
    }, ms);
    timer.unref();
    if (which === 'deaf') this.deafTimer = timer;
    else this.muteTimer = timer;
  }

  private clear(which: 'deaf' | 'mute'): void {
    const timer = which === 'deaf' ? this.deafTimer : this.muteTimer;
    if (timer) clearTimeout(timer);
    if (which === 'deaf') this.deafTimer = null;
    else this.muteTimer = null;
  }
}
