import {
  acceptCallPermission,
  CallPermission,
  err,
  noCallPermission,
  ok,
  recordPermissionRequest,
} from '@voiceplane/domain';
import { CallPermissionRepository } from '@voiceplane/application';

export interface CallPermissionFixture {
  readonly permissions: CallPermissionRepository;
  /** Whether a row is stored for the contact (a refused change must leave none). */
  readonly stored: (senderId: number, customerPhone: string) => Promise<boolean>;
}

const PHONE = '+4915112345678';
const T0 = new Date('2030-05-01T10:00:00.000Z');
const later = (ms: number): Date => new Date(T0.getTime() + ms);

/** The CallPermissionRepository port's behaviour, run against every implementation. `open` gives an empty store per test. */
export function callPermissionRepositoryContract(name: string, open: () => Promise<CallPermissionFixture>): void {
  describe(`CallPermissionRepository contract: ${name}`, () => {
    let f: CallPermissionFixture;

    beforeEach(async () => {
      f = await open();
    });

    it('reads a contact never asked as `none`, without storing anything', async () => {
      expect(await f.permissions.find(7, PHONE)).toEqual(noCallPermission(7, PHONE));
      expect(await f.stored(7, PHONE)).toBe(false);
    });

    it('stores what a change decides and reads every field back', async () => {
      const answer = await f.permissions.update(7, PHONE, async (current) => {
        const asked = recordPermissionRequest(current, T0);
        if (!asked.ok) return asked;
        const granted = acceptCallPermission(asked.value.next, false, later(60_000));
        return ok({ next: granted.next, answer: 'granted' });
      });

      expect(answer).toEqual(ok('granted'));
      const read = await f.permissions.find(7, PHONE);
      expect(read).toEqual<CallPermission>({
        senderId: 7,
        customerPhone: PHONE,
        status: 'granted',
        isPermanent: false,
        expiresAt: later(60_000 + 7 * 86_400_000),
        requestedAt: T0,
        respondedAt: later(60_000),
        asks: [T0],
        asksCountedAfter: null,
      });
      expect(await f.permissions.find(8, PHONE)).toEqual(noCallPermission(8, PHONE));
    });

    it('stores nothing on a refusal or when the change keeps the row as it is', async () => {
      expect(await f.permissions.update(7, PHONE, async () => err('refused'))).toEqual(err('refused'));
      expect(await f.permissions.update(7, PHONE, async () => ok({ next: null, answer: 1 }))).toEqual(ok(1));

      expect(await f.stored(7, PHONE)).toBe(false);
    });

    it('judges concurrent changes of one contact one after the other: only one of two first requests passes the daily limit', async () => {
      const ask = () =>
        f.permissions.update(7, PHONE, async (current) => {
          const asked = recordPermissionRequest(current, T0);
          return asked.ok ? ok({ next: asked.value.next, answer: 'asked' }) : asked;
        });

      const results = await Promise.all([ask(), ask(), ask()]);

      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect((await f.permissions.find(7, PHONE)).asks).toEqual([T0]);
    });
  });
}
