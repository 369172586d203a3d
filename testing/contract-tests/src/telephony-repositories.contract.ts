import { NewPurchasedNumber, PhoneNumberRepository, SipTrunkRepository, StoredSipTrunk } from '@voiceplane/application';

export interface TelephonyRepositoriesFixture {
  /** Both over one store: a trunk is also one of the account's numbers. */
  readonly numbers: PhoneNumberRepository;
  readonly trunks: SipTrunkRepository;
  /** Two accounts numbers may belong to. */
  readonly users: readonly [number, number];
}

const at = (day: number) => new Date(Date.UTC(2030, 4, day, 12));
let sequence = 0;
/** A number no other test holds (purchased numbers are unique across accounts). */
const freshNumber = () => `+1415555${String(++sequence).padStart(4, '0')}`;

const purchased = (userId: number, over: Partial<NewPurchasedNumber> = {}): NewPurchasedNumber => ({
  userId,
  phoneNumber: freshNumber(),
  countryCode: 'US',
  smsCapable: true,
  monthlyPrice: 1.15,
  providerReference: 'PN_ref',
  purchasedAt: at(1),
  renewsAt: at(31),
  ...over,
});

async function newTrunk(
  trunks: SipTrunkRepository,
  userId: number,
  over: Partial<StoredSipTrunk> = {},
): Promise<StoredSipTrunk> {
  const id = await trunks.reserveId();
  return trunks.insert({
    id,
    userId,
    phoneNumber: '+493012345678',
    nickname: 'Berlin office',
    sipUsername: 'acme',
    sipPasswordCipher: 'v1:sealed',
    sipAddress: 'sip.carrier.example',
    sipCallingFormat: '+e164',
    inboundAuthorizationType: 'ip',
    allowedInboundIps: ['203.0.113.10'],
    outboundProxy: false,
    countryCode: 'DE',
    inboundTrunkId: `ST_in_${id}`,
    outboundTrunkId: `ST_out_${id}`,
    inboundRouteId: `SDR_${id}`,
    createdAt: at(2),
    updatedAt: at(2),
    ...over,
  });
}

/**
 * The PhoneNumberRepository and SipTrunkRepository ports' behaviour, run against every
 * implementation: numbers are their account's alone, a purchased number belongs to one account,
 * a trunk is one of the account's numbers (listed with them, deleted with its number), a trunk
 * update written over a newer version is refused, and due renewals are handed out oldest first.
 * `open` gives a store without numbers for each test.
 */
export function telephonyRepositoriesContract(name: string, open: () => Promise<TelephonyRepositoriesFixture>): void {
  describe(`PhoneNumberRepository and SipTrunkRepository contract: ${name}`, () => {
    let f: TelephonyRepositoriesFixture;

    beforeEach(async () => {
      f = await open();
    });

    it('stores a purchased number for one account only, shown to its owner', async () => {
      const bought = purchased(f.users[0]);
      const stored = await f.numbers.insertPurchased(bought);
      expect(stored).toEqual({
        id: expect.any(Number),
        userId: f.users[0],
        phoneNumber: bought.phoneNumber,
        type: 'purchased',
        countryCode: 'US',
        nickname: null,
        smsCapable: true,
        monthlyPrice: 1.15,
        inboundAssistantId: null,
        providerReference: 'PN_ref',
        renewsAt: at(31),
        createdAt: at(1),
        updatedAt: at(1),
      });
      expect(await f.numbers.find(f.users[0], stored!.id)).toEqual(stored);
      expect(await f.numbers.find(f.users[1], stored!.id)).toBeNull();

      expect(await f.numbers.insertPurchased({ ...purchased(f.users[1]), phoneNumber: bought.phoneNumber })).toBeNull();
      expect(await f.numbers.purchasedAmong([bought.phoneNumber, freshNumber()])).toEqual(
        new Set([bought.phoneNumber]),
      );
      expect(await f.numbers.purchasedAmong([])).toEqual(new Set());
    });

    it("lists an account's purchased numbers and trunks together, newest first", async () => {
      const number = (await f.numbers.insertPurchased(purchased(f.users[0])))!;
      const trunk = await newTrunk(f.trunks, f.users[0]);
      await newTrunk(f.trunks, f.users[1]);

      expect(await f.numbers.list(f.users[0])).toEqual([
        {
          id: trunk.id,
          userId: f.users[0],
          phoneNumber: '+493012345678',
          type: 'sip',
          countryCode: 'DE',
          nickname: 'Berlin office',
          smsCapable: false,
          monthlyPrice: null,
          inboundAssistantId: null,
          providerReference: null,
          renewsAt: null,
          createdAt: at(2),
          updatedAt: at(2),
        },
        number,
      ]);
      expect(await f.trunks.list(f.users[0])).toEqual([trunk]);
      expect(await f.trunks.find(f.users[0], number.id)).toBeNull();
    });

    it('deletes a number with its trunk, for its owner only', async () => {
      const trunk = await newTrunk(f.trunks, f.users[0]);
      expect(await f.numbers.delete(f.users[1], trunk.id)).toBe(false);
      expect(await f.numbers.delete(f.users[0], trunk.id)).toBe(true);
      expect(await f.numbers.delete(f.users[0], trunk.id)).toBe(false);
      expect(await f.trunks.find(f.users[0], trunk.id)).toBeNull();
      expect(await f.numbers.list(f.users[0])).toEqual([]);
    });

    it("renames the owner's number and trunk alike; another account's is not found and keeps its name", async () => {
      const number = (await f.numbers.insertPurchased(purchased(f.users[0])))!;
      const trunk = await newTrunk(f.trunks, f.users[0]);

      expect(await f.numbers.rename(f.users[0], number.id, 'Sales line', at(3))).toEqual({
        ...number,
        nickname: 'Sales line',
        updatedAt: at(3),
      });
      expect((await f.numbers.rename(f.users[0], trunk.id, null, at(4)))?.nickname).toBeNull();
      expect((await f.trunks.find(f.users[0], trunk.id))?.nickname).toBeNull();
      expect(await f.numbers.rename(f.users[1], number.id, 'Mine', at(5))).toBeNull();
      expect((await f.numbers.find(f.users[0], number.id))?.nickname).toBe('Sales line');
    });

    it('hands out due renewals oldest first, and a moved renewal is no longer due', async () => {
      const later = (await f.numbers.insertPurchased(purchased(f.users[0], { renewsAt: at(20) })))!;
      const sooner = (await f.numbers.insertPurchased(purchased(f.users[1], { renewsAt: at(10) })))!;
      await f.numbers.insertPurchased(purchased(f.users[0], { renewsAt: at(40) }));
      await newTrunk(f.trunks, f.users[0]);

      expect(await f.numbers.claimDueRenewal(at(5))).toBeNull();
      expect(await f.numbers.claimDueRenewal(at(25))).toEqual(sooner);
      await f.numbers.setRenewsAt(sooner.id, at(40));
      expect(await f.numbers.claimDueRenewal(at(25))).toEqual(later);
      expect((await f.numbers.find(f.users[1], sooner.id))?.renewsAt).toEqual(at(40));
    });

    it('reserves distinct ids and stores a trunk under the reserved one, shown to its owner only', async () => {
      const [a, b] = [await f.trunks.reserveId(), await f.trunks.reserveId()];
      expect(a).not.toBe(b);
      const trunk = await newTrunk(f.trunks, f.users[0], {
        inboundAuthorizationType: 'auth',
        allowedInboundIps: null,
        outboundProxy: true,
      });
      expect(trunk).toEqual(
        expect.objectContaining({
          userId: f.users[0],
          inboundAuthorizationType: 'auth',
          allowedInboundIps: null,
          outboundProxy: true,
          countryCode: 'DE',
        }),
      );
      expect(await f.trunks.find(f.users[0], trunk.id)).toEqual(trunk);
      expect(await f.trunks.find(f.users[1], trunk.id)).toBeNull();
    });

    it("finds a duplicate by number, username and address (host case-insensitive) among the account's other trunks", async () => {
      const trunk = await newTrunk(f.trunks, f.users[0]);
      const identity = {
        phoneNumber: trunk.phoneNumber,
        sipUsername: trunk.sipUsername,
        sipAddress: 'SIP.Carrier.Example',
      };
      await f.trunks.lockAccount(f.users[0]);
      expect(await f.trunks.hasDuplicate(f.users[0], identity, null)).toBe(true);
      expect(await f.trunks.hasDuplicate(f.users[0], identity, trunk.id)).toBe(false);
      expect(await f.trunks.hasDuplicate(f.users[0], { ...identity, sipUsername: 'other' }, null)).toBe(false);
      expect(await f.trunks.hasDuplicate(f.users[1], identity, null)).toBe(false);
    });

    it('updates a trunk read at its current version, and refuses one changed since', async () => {
      const trunk = await newTrunk(f.trunks, f.users[0]);
      const changed = {
        ...trunk,
        nickname: 'Munich',
        sipAddress: 'sip2.carrier.example',
        allowedInboundIps: ['198.51.100.0/24'],
        inboundRouteId: 'SDR_new',
        updatedAt: at(3),
      };
      const updated = await f.trunks.update(changed, trunk.updatedAt);
      expect(updated).toEqual(changed);
      expect(await f.trunks.find(f.users[0], trunk.id)).toEqual(changed);

      expect(await f.trunks.update({ ...changed, nickname: 'Stale', updatedAt: at(4) }, trunk.updatedAt)).toBeNull();
      expect(await f.trunks.update({ ...changed, userId: f.users[1], updatedAt: at(4) }, changed.updatedAt)).toBeNull();
      expect(await f.trunks.find(f.users[0], trunk.id)).toEqual(changed);
    });
  });
}
