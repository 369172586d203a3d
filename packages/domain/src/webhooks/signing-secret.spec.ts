import { previousSecretExpiry, rotationGraceEnd, secretsInForce } from './signing-secret';

const now = new Date('2026-03-01T10:00:00.000Z');

describe('signing-secret rotation', () => {
  it('keeps the previous secret for 24 hours', () => {
    expect(rotationGraceEnd(now).toISOString()).toBe('2026-03-02T10:00:00.000Z');
  });

  it.each([
    ['never rotated', null, null, ['new'], null],
    ['within the grace period', 'old', '2026-03-01T10:00:00.001Z', ['new', 'old'], '2026-03-01T10:00:00.001Z'],
    ['at the end of the grace period', 'old', '2026-03-01T10:00:00.000Z', ['new'], null],
    ['after the grace period', 'old', '2026-02-28T10:00:00.000Z', ['new'], null],
  ])('%s: signs with %j', (_name, previous, expiresAt, secrets, expiry) => {
    const state = {
      secret: 'new',
      previousSecret: previous,
      previousExpiresAt: expiresAt ? new Date(expiresAt) : null,
    };
    expect(secretsInForce(state, now)).toEqual(secrets);
    expect(previousSecretExpiry(state, now)?.toISOString() ?? null).toBe(expiry);
  });
});
