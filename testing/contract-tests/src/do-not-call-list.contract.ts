import { DoNotCallList } from '@voiceplane/application';

export interface DoNotCallFixture {
  readonly list: DoNotCallList;
  /** Two accounts numbers may be listed for. */
  readonly users: readonly [number, number];
}

const T0 = new Date('2030-04-01T09:00:00.000Z');

/** The DoNotCallList port's behaviour, run against every implementation. */
export function doNotCallListContract(name: string, open: () => Promise<DoNotCallFixture>): void {
  describe(`Do-not-call list contract: ${name}`, () => {
    let f: DoNotCallFixture;
    let user: number;
    let other: number;

    beforeEach(async () => {
      f = await open();
      [user, other] = f.users;
    });

    it('adds only numbers the account does not list yet, and lists them for that account alone', async () => {
      expect(
        await f.list.add(
          user,
          [
            { phoneNumber: '+14155550001', reason: 'asked' },
            { phoneNumber: '+14155550002', reason: null },
          ],
          T0,
        ),
      ).toBe(2);
      expect(await f.list.add(user, [{ phoneNumber: '+14155550001', reason: 'again' }], T0)).toBe(0);
      expect(await f.list.add(other, [{ phoneNumber: '+14155550001', reason: null }], T0)).toBe(1);
      expect(await f.list.count(user)).toBe(2);
      expect([...(await f.list.listed(user, ['+14155550001', '+14155550003']))]).toEqual(['+14155550001']);
      expect((await f.list.listed(other, ['+14155550002'])).size).toBe(0);
      const rows = await f.list.list(user, {}, null, 10);
      expect(rows.map((r) => [r.phoneNumber, r.reason, r.userId, r.createdAt])).toEqual([
        ['+14155550002', null, user, T0],
        ['+14155550001', 'asked', user, T0],
      ]);
    });

    it('pages newest first below an id, filters by exact number, and removes only its own rows', async () => {
      await f.list.add(
        user,
        ['+14155550011', '+14155550012', '+14155550013'].map((phoneNumber) => ({ phoneNumber, reason: null })),
        T0,
      );
      const [newest, middle, oldest] = await f.list.list(user, {}, null, 10);
      expect((await f.list.list(user, {}, newest.id, 1)).map((r) => r.id)).toEqual([middle.id]);
      expect((await f.list.list(user, {}, oldest.id, 10)).length).toBe(0);
      expect((await f.list.list(user, { phoneNumber: '+14155550012' }, null, 10)).map((r) => r.id)).toEqual([
        middle.id,
      ]);
      expect(await f.list.remove(other, middle.id)).toBe(false);
      expect(await f.list.remove(user, middle.id)).toBe(true);
      expect(await f.list.remove(user, middle.id)).toBe(false);
      expect((await f.list.listed(user, ['+14155550012'])).size).toBe(0);
    });
  });
}
