import { FakeStore } from '@voiceplane/adapter-fakes';
import { ROTATION_GRACE_HOURS } from '@voiceplane/domain';
import { SigningSecrets } from './signing-secrets';

/** The signing secret's rotation on the in-memory repository (proven by the signing secret contract). */

const START = new Date('2030-05-01T12:00:00.000Z');
const HOUR_MS = 3_600_000;

function setup() {
  const store = new FakeStore(START);
  return { store, secrets: new SigningSecrets(store.secrets, store.ids, store.clock, store.uow) };
}

describe('SigningSecrets', () => {
  it('keeps the replaced secret signing for the grace period after a rotation, and says until when', async () => {
    const { store, secrets } = setup();
    await store.secrets.create(1, 'whsec_first');
    expect(await secrets.current(1)).toEqual({
      secret: expect.objectContaining({ secret: 'whsec_first' }),
      previousExpiresAt: null,
    });

    const graceEnd = new Date(START.getTime() + ROTATION_GRACE_HOURS * HOUR_MS);
    const rotated = await secrets.rotate(1);
    expect(rotated).toEqual({
      secret: expect.objectContaining({ secret: expect.stringMatching(/^whsec_./), previousSecret: 'whsec_first' }),
      previousExpiresAt: graceEnd,
    });
    expect(rotated.secret.secret).not.toBe('whsec_first');
    expect((await secrets.current(1)).previousExpiresAt).toEqual(graceEnd);

    store.clock.set(graceEnd);
    expect((await secrets.current(1)).previousExpiresAt).toBeNull();
  });

  it('treats an account without a secret as broken', async () => {
    await expect(setup().secrets.current(9)).rejects.toThrow('account without a signing secret');
  });
});
