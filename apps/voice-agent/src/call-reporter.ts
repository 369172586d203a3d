import type { CallEvent, ControlPlane } from './control-plane';

export type Speaker = 'assistant' | 'customer';
export interface TranscriptItem {
  readonly role: Speaker;
  readonly content: string;
  readonly at: string;
}

/** Why the agent ended a call; the control plane stores it with the call. */
export type EndedReason =
  | 'customer_hangup'
  | 'assistant_ended'
  | 'max_duration'
  | 'silence_timeout'
  | 'voicemail'
  | 'transferred'
  | 'configuration_error'
  | 'provider_error';

export interface CallEnd {
  readonly status: 'completed' | 'failed' | 'canceled' | 'no-answer' | 'busy';
  readonly reason: EndedReason | 'no_answer' | 'dial_failed';
  readonly recordingUrl?: string | null;
}

export interface Clock {
  now(): Date;
}

/**
 * Reports one call's life through the events route, in order, one request at a time. Every
 * occurrence has an id derived from what it is (`answered`, the n-th transcript item, `ended`),
 * so a retry — by the HTTP client, or by a restarted agent replaying the same call — is a
 * duplicate for the control plane, never a second event. The `ended` event carries the whole
 * transcript, so an item whose report was lost is not lost from the call.
 */
export class CallReporter {
  private chain: Promise<void> = Promise.resolve();
  private readonly items: TranscriptItem[] = [];
  private answeredAt: Date | null = null;
  private endedSent = false;

  constructor(
    readonly callId: number,
    private readonly controlPlane: ControlPlane,
    private readonly clock: Clock,
    private readonly onError: (event: CallEvent, error: unknown) => void = () => undefined,
  ) {}

  get isAnswered(): boolean {
    return this.answeredAt !== null;
  }

  get transcript(): readonly TranscriptItem[] {
    return this.items;
  }

  ringing(): Promise<void> {
    return this.enqueue({ event_id: 'agent-ringing', type: 'ringing', occurred_at: this.clock.now().toISOString() });
  }

  answered(): Promise<void> {
    if (this.answeredAt !== null) return this.chain;
    this.answeredAt = this.clock.now();
    return this.enqueue({ event_id: 'agent-answered', type: 'answered', occurred_at: this.answeredAt.toISOString() });
  }

  said(role: Speaker, content: string, at: Date = this.clock.now()): Promise<void> {
    const text = content.trim();
    if (text === '' || this.endedSent) return this.chain;
    const item = { role, content: text, at: at.toISOString() };
    this.items.push(item);
    return this.enqueue({
      event_id: `agent-transcript-${this.items.length}`,
      type: 'transcript',
      occurred_at: item.at,
      data: { items: [item] },
    });
  }

  /** Once per call; later calls return the first report. */
  ended(end: CallEnd): Promise<void> {
    if (this.endedSent) return this.chain;
    this.endedSent = true;
    const now = this.clock.now();
    const duration =
      this.answeredAt === null ? 0 : Math.max(0, Math.round((now.getTime() - this.answeredAt.getTime()) / 1000));
    const data: Record<string, unknown> = {
      status: end.status,
      duration,
      transcript: [...this.items],
      ended_reason: end.reason,
    };
    if (end.recordingUrl) data.recording_url = end.recordingUrl;
    return this.enqueue({ event_id: 'agent-ended', type: 'ended', occurred_at: now.toISOString(), data });
  }

  /** Resolves when every report so far has been answered (or given up on). */
  flushed(): Promise<void> {
    return this.chain;
  }

  private enqueue(event: CallEvent): Promise<void> {
    this.chain = this.chain
      .then(() => this.controlPlane.report(this.callId, event))
      .catch((e) => this.onError(event, e));
    return this.chain;
  }
}
