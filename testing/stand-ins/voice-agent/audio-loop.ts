import { join } from 'node:path';
import { stream, voice } from '@livekit/agents';
import { AudioFrame } from '@livekit/rtc-node';
import { readWav } from './pcm';

/**
 * The phone line of the audio loop, without a room: what the customer says comes from WAV
 * fixtures in real time, what the assistant says is played out in real time and recorded. A
 * session takes them as `session.input.audio` / `session.output.audio`, as LiveKit's console mode
 * feeds a session.
 */

export const FIXTURES = join(__dirname, 'fixtures');
const FRAME_MS = 20;

/** When a fixture was played into the line (wall clock, ms). */
export interface Spoken {
  readonly fixture: string;
  readonly startedAt: number;
  readonly endedAt: number;
}

interface Utterance {
  readonly samples: Int16Array;
  readonly onStart: (at: number) => void;
  readonly done: (endedAt: number) => void;
}

/**
 * The customer's side: a continuous 16 kHz line of 20 ms frames, paced by the clock (silence
 * between utterances, as a phone line carries it). `dead` delivers nothing at all.
 */
export class CustomerLine extends voice.AudioInput {
  readonly sampleRate = 16000;
  private readonly channel = stream.createStreamChannel<AudioFrame>();
  private readonly queue: Utterance[] = [];
  private timer: NodeJS.Timeout | null = null;
  private next = 0;
  private cursor: (Utterance & { offset: number }) | null = null;
  readonly spoken: Spoken[] = [];

  constructor(options: { dead?: boolean } = {}) {
    super();
    this.multiStream.addInputStream(this.channel.stream());
    if (!options.dead) {
      this.next = Date.now();
      this.tick();
    }
  }

  /** Plays a fixture (file name without `.wav`) after what is queued; resolves when its last frame went out. */
  say(fixture: string): Promise<Spoken> {
    const wav = readWav(join(FIXTURES, `${fixture}.wav`));
    if (wav.sampleRate !== this.sampleRate || wav.channels !== 1) throw new Error(`${fixture}: not 16 kHz mono`);
    return new Promise((resolve) => {
      let startedAt = 0;
      this.queue.push({
        samples: wav.samples,
        onStart: (at) => (startedAt = at),
        done: (endedAt) => {
          const spoken = { fixture, startedAt, endedAt };
          this.spoken.push(spoken);
          resolve(spoken);
        },
      });
    });
  }

  override async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.channel.close().catch(() => undefined);
    await super.close();
  }

  /** Every 20 ms one frame; a late timer (a loaded machine) catches up with the frames it owes. */
  private tick(): void {
    const now = Date.now();
    while (this.next <= now) {
      void this.channel.write(this.frame()).catch(() => undefined);
      this.next += FRAME_MS;
    }
    this.timer = setTimeout(() => this.tick(), Math.max(1, this.next - Date.now()));
    this.timer.unref();
  }

  private frame(): AudioFrame {
    const n = (this.sampleRate * FRAME_MS) / 1000;
    const data = new Int16Array(n);
    if (!this.cursor && this.queue.length > 0) {
      const entry = this.queue.shift()!;
      entry.onStart(this.next);
      this.cursor = { ...entry, offset: 0 };
    }
    if (this.cursor) {
      const c = this.cursor;
      data.set(c.samples.subarray(c.offset, c.offset + n));
      c.offset += n;
      if (c.offset >= c.samples.length) {
        this.cursor = null;
        c.done(this.next + ((c.samples.length % n || n) * 1000) / this.sampleRate);
      }
    }
    return new AudioFrame(data, this.sampleRate, 1, n);
  }
}

/** One frame the assistant said: when it was heard and for how long. */
export interface Heard {
  readonly at: number;
  readonly ms: number;
  readonly segment: number;
}

interface Segment {
  readonly id: number;
  readonly start: number;
  pushedMs: number;
  finished: boolean;
  /** When it stopped playing: its end, or the moment it was cut off. */
  endedAt: number;
  interrupted: boolean;
  timer: NodeJS.Timeout | null;
}

/**
 * The assistant's side: plays what the session sends in real time (a segment ends when its audio
 * has played, or at once when the session clears the buffer on an interruption) and records every
 * frame heard with its time. Frames cut off by an interruption were never heard and are dropped.
 */
export class AssistantEar extends voice.AudioOutput {
  readonly heard: Heard[] = [];
  readonly segments: Segment[] = [];
  private playhead = 0;
  private current: Segment | null = null;

  constructor() {
    super(undefined, undefined, { pause: false });
  }

  override async captureFrame(frame: AudioFrame): Promise<void> {
    await super.captureFrame(frame);
    const now = Date.now();
    const ms = (frame.samplesPerChannel / frame.sampleRate) * 1000;
    if (!this.current) {
      this.current = {
        id: this.segments.length + 1,
        start: Math.max(now, this.playhead),
        pushedMs: 0,
        finished: false,
        endedAt: 0,
        interrupted: false,
        timer: null,
      };
      this.segments.push(this.current);
      this.playhead = this.current.start;
      this.onPlaybackStarted(this.current.start);
    }
    const at = Math.max(this.playhead, now);
    this.heard.push({ at, ms, segment: this.current.id });
    this.playhead = at + ms;
    this.current.pushedMs += ms;
  }

  override flush(): void {
    super.flush();
    const segment = this.current;
    this.current = null;
    if (!segment) return;
    segment.timer = setTimeout(() => this.finish(segment, false), Math.max(0, this.playhead - Date.now()));
  }

  clearBuffer(): void {
    const now = Date.now();
    const open = this.segments.filter((s) => !s.finished);
    if (open.length === 0) return;
    for (let i = this.heard.length - 1; i >= 0 && this.heard[i].at > now; i -= 1) this.heard.pop();
    this.playhead = now;
    this.current = null;
    for (const s of open) this.finish(s, true);
  }

  /** The first frame heard at or after `t`, or null. */
  firstHeardAfter(t: number): Heard | null {
    return this.heard.find((h) => h.at >= t) ?? null;
  }

  /** Milliseconds of audio heard in [from, to). */
  heardMs(from: number, to = Number.POSITIVE_INFINITY): number {
    return this.heard.filter((h) => h.at >= from && h.at < to).reduce((sum, h) => sum + h.ms, 0);
  }

  /** Whether the assistant's audio is playing at this moment. */
  playing(now = Date.now()): boolean {
    return this.heard.some((h) => h.at <= now && h.at + h.ms > now);
  }

  private finish(segment: Segment, interrupted: boolean): void {
    if (segment.finished) return;
    if (segment.timer) clearTimeout(segment.timer);
    segment.finished = true;
    segment.endedAt = Date.now();
    segment.interrupted = interrupted;
    const played = interrupted ? Math.min(Math.max(0, Date.now() - segment.start), segment.pushedMs) : segment.pushedMs;
    this.onPlaybackFinished({ playbackPosition: played / 1000, interrupted });
  }
}
