import { IdempotencyStore } from '@voiceplane/application';

/**
 * Every claim happens at NOW, long before any wall clock a store could read instead: a store that
 * judged expiry by its own clock would find every FAR_AHEAD claim expired.
 */
const NOW = new Date('2001-01-01T10:00:00.000Z');
const LONG_AGO = new Date('2001-01-01T09:00:00.000Z');
const FAR_AHEAD = new Date('2001-01-02T10:00:00.000Z');
/** Fingerprints are SHA-256 hex digests of the request body. */
const BODY_A = 'a'.repeat(64);
const BODY_B = 'b'.repeat(64);
const SCOPE = 'u7:POST:/api/user/assistants:key-1';
/** A claim at NOW kept until `expiresAt`, its lease far ahead. */
const until = (expiresAt: Date) => ({ now: NOW, expiresAt, leaseUntil: FAR_AHEAD });
const A_MINUTE_LATER = new Date(NOW.getTime() + 60_000);
const TWO_MINUTES_LATER = new Date(NOW.getTime() + 120_000);

/** The IdempotencyStore port's behaviour, run against every store. `open` gives an empty store for each test. */
export function idempotencyStoreContract(name: string, open: () => Promise<IdempotencyStore>): void {
  describe(`IdempotencyStore contract: ${name}`, () => {
    let store: IdempotencyStore;
    const inFlight = (fingerprint: string) => ({
      fingerprint,
      state: 'in_flight',
      responseStatus: null,
      responseBody: null,
    });

    beforeEach(async () => {
      store = await open();
    });

    it('claims a scope for the first request and hands later ones what is stored, whatever their body', async () => {
      expect(await store.claim(SCOPE, BODY_A, until(FAR_AHEAD))).toBeNull();

      expect(await store.claim(SCOPE, BODY_A, until(FAR_AHEAD))).toEqual(inFlight(BODY_A));
      expect(await store.claim(SCOPE, BODY_B, until(FAR_AHEAD))).toEqual(inFlight(BODY_A));
    });

    it('stores the answer on complete, for later claims to replay', async () => {
      await store.claim(SCOPE, BODY_A, until(FAR_AHEAD));
      await store.complete(SCOPE, 201, '{"id":1}');

      expect(await store.claim(SCOPE, BODY_A, until(FAR_AHEAD))).toEqual({
        fingerprint: BODY_A,
        state: 'done',
        responseStatus: 201,
        responseBody: '{"id":1}',
      });
    });

    it('forgets a released claim, so the next request claims the scope afresh', async () => {
      await store.claim(SCOPE, BODY_A, until(FAR_AHEAD));
      await store.release(SCOPE);

      expect(await store.claim(SCOPE, BODY_B, until(FAR_AHEAD))).toBeNull();
      expect(await store.claim(SCOPE, BODY_A, until(FAR_AHEAD))).toEqual(inFlight(BODY_B));
    });

    it('keeps scopes apart', async () => {
      await store.claim(SCOPE, BODY_A, until(FAR_AHEAD));
      await store.complete(SCOPE, 200, '{}');

      expect(await store.claim(`${SCOPE}-other`, BODY_A, until(FAR_AHEAD))).toBeNull();
      await store.release(`${SCOPE}-other`);
      expect(await store.claim(SCOPE, BODY_A, until(FAR_AHEAD))).toMatchObject({ state: 'done' });
    });

    it('replaces an expired claim, in flight or done, as if it never existed', async () => {
      await store.claim(SCOPE, BODY_A, until(LONG_AGO));
      expect(await store.claim(SCOPE, BODY_B, until(LONG_AGO))).toBeNull();
      await store.complete(SCOPE, 200, '{"old":true}');

      expect(await store.claim(SCOPE, BODY_A, until(FAR_AHEAD))).toBeNull();
      expect(await store.claim(SCOPE, BODY_B, until(FAR_AHEAD))).toEqual(inFlight(BODY_A));
    });

    it('stores nothing when a scope that was never claimed is completed or released', async () => {
      await store.complete(SCOPE, 200, '{}');
      await store.release(SCOPE);

      expect(await store.claim(SCOPE, BODY_A, until(FAR_AHEAD))).toBeNull();
    });

    it('replaces an in-flight claim whose lease lapsed (its request died), but not one whose lease was renewed', async () => {
      await store.claim(SCOPE, BODY_A, { now: NOW, expiresAt: FAR_AHEAD, leaseUntil: A_MINUTE_LATER });
      expect(await store.claim(SCOPE, BODY_A, { now: NOW, expiresAt: FAR_AHEAD, leaseUntil: A_MINUTE_LATER })).toEqual(
        inFlight(BODY_A),
      );

      expect(
        await store.claim(SCOPE, BODY_A, { now: TWO_MINUTES_LATER, expiresAt: FAR_AHEAD, leaseUntil: FAR_AHEAD }),
      ).toBeNull();

      await store.release(SCOPE);
      await store.claim(SCOPE, BODY_A, { now: NOW, expiresAt: FAR_AHEAD, leaseUntil: A_MINUTE_LATER });
      await store.renew(SCOPE, FAR_AHEAD);
      expect(
        await store.claim(SCOPE, BODY_A, { now: TWO_MINUTES_LATER, expiresAt: FAR_AHEAD, leaseUntil: FAR_AHEAD }),
      ).toEqual(inFlight(BODY_A));
    });

    it('keeps a stored answer after the lease of its request has ended', async () => {
      await store.claim(SCOPE, BODY_A, { now: NOW, expiresAt: FAR_AHEAD, leaseUntil: A_MINUTE_LATER });
      await store.complete(SCOPE, 201, '{"id":1}');
      await store.renew(SCOPE, A_MINUTE_LATER);

      expect(
        await store.claim(SCOPE, BODY_A, { now: TWO_MINUTES_LATER, expiresAt: FAR_AHEAD, leaseUntil: FAR_AHEAD }),
      ).toEqual({ fingerprint: BODY_A, state: 'done', responseStatus: 201, responseBody: '{"id":1}' });
    });

    it('lets exactly one of several concurrent first requests claim the scope', async () => {
      const bodies = ['1', '2', '3', '4', '5'].map((c) => c.repeat(64));

      const answers = await Promise.all(bodies.map((body) => store.claim(SCOPE, body, until(FAR_AHEAD))));

      const winners = bodies.filter((_, i) => answers[i] === null);
      expect(winners).toHaveLength(1);
      expect(answers.filter((a) => a !== null)).toEqual(Array(4).fill(inFlight(winners[0])));
    });
  });
}
