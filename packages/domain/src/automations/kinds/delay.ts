import { PureStepKindRules } from './step-kind';

/** Delay bounds: the `delay_minutes` range (one week at most). */
export const MIN_DELAY_MINUTES = 1;
export const MAX_DELAY_MINUTES = 10_080;

export interface DelayConfig {
  readonly minutes: number;
}

/** The run pauses here; the engine resumes it when the minutes are over. */
export const DELAY_STEP: PureStepKindRules<DelayConfig> = {
  checkConfig: (c, bad) => {
    const m = c.minutes;
    if (typeof m !== 'number' || !Number.isInteger(m) || m < MIN_DELAY_MINUTES || m > MAX_DELAY_MINUTES) bad('minutes');
  },
  execute: () => ({ kind: 'paused_at_delay' }),
};
