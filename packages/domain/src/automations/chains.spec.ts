import { chainAttempt } from './chains';

describe('chainAttempt (no loops)', () => {
  const followup = (max?: number) => ({
    kind: 'trigger.assistant_event' as const,
    event: 'call.ended' as const,
    ...(max === undefined ? {} : { max_attempts: max }),
  });

  it('starts the first attempt for a call the automation did not place', () => {
    expect(chainAttempt(followup(), null)).toBe(1);
    expect(chainAttempt({ kind: 'trigger.webhook', mode: 'async' }, null)).toBe(1);
  });

  it('never runs again on its own call without a chain rule', () => {
    expect(chainAttempt(followup(), 1)).toBeNull();
  });

  it('counts along the chain up to max_attempts', () => {
    expect(chainAttempt(followup(1), 1)).toBeNull();
    expect(chainAttempt(followup(2), 1)).toBe(2);
    expect(chainAttempt(followup(2), 2)).toBeNull();
    expect(chainAttempt(followup(5), 4)).toBe(5);
    expect(chainAttempt(followup(5), 5)).toBeNull();
  });
});
