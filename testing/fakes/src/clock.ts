import { Clock } from '@voiceplane/application';

/** Time that moves only when the test says so. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date) {
    this.current = start.getTime();
  }

  /** A fresh Date each call, so a caller that mutates it cannot move the clock. */
  now(): Date {
    return new Date(this.current);
  }

  set(to: Date): void {
    this.current = to.getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
