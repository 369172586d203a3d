import { attemptOutcome, EndedAttempt, RetryRules } from './attempt-outcome';

const answered: EndedAttempt = { status: 'completed', endedReason: null, extractedVariables: {} };
const plain: RetryRules = { retryOnVoicemail: false, retryOnGoalIncomplete: false, goalCompletionVariable: null };
const goal: RetryRules = { ...plain, retryOnGoalIncomplete: true, goalCompletionVariable: 'booked' };

describe('attempt outcome', () => {
  it.each(['busy', 'no-answer', 'failed', 'canceled'] as const)('%s fails whatever the rules', (status) => {
    expect(attemptOutcome({ ...answered, status }, plain)).toBe('failed');
    expect(attemptOutcome({ ...answered, status, endedReason: 'dispatch_lost' }, goal)).toBe('failed');
  });

  it('an answered call succeeds without the goal rule', () => {
    expect(attemptOutcome(answered, plain)).toBe('success');
    expect(
      attemptOutcome(
        { ...answered, extractedVariables: { booked: false } },
        { ...plain, goalCompletionVariable: 'booked' },
      ),
    ).toBe('success');
  });

  it.each<[unknown, 'success' | 'failed']>([
    [true, 'success'],
    ['true', 'success'],
    [1, 'success'],
    [false, 'failed'],
    ['false', 'failed'],
    [0, 'failed'],
    [null, 'failed'],
    ['yes', 'failed'],
  ])('with the goal rule, %j → %s', (value, outcome) => {
    expect(attemptOutcome({ ...answered, extractedVariables: { booked: value } }, goal)).toBe(outcome);
  });

  it('with the goal rule, a missing variable fails; the name is case-sensitive', () => {
    expect(attemptOutcome(answered, goal)).toBe('failed');
    expect(attemptOutcome({ ...answered, extractedVariables: { Booked: true } }, goal)).toBe('failed');
  });

  it('a voicemail fails only with retry_on_voicemail, whatever the goal rule says', () => {
    const voicemail = { ...answered, endedReason: 'voicemail', extractedVariables: { booked: true } };
    expect(attemptOutcome(voicemail, plain)).toBe('success');
    expect(attemptOutcome(voicemail, goal)).toBe('success');
    expect(attemptOutcome(voicemail, { ...plain, retryOnVoicemail: true })).toBe('failed');
    expect(attemptOutcome({ ...voicemail, extractedVariables: {} }, { ...goal, retryOnVoicemail: false })).toBe(
      'success',
    );
  });
});
