import { FakeStore, InMemoryPhoneNumbers, SAMPLE_CATALOG } from '@voiceplane/adapter-fakes';
import { AssistantConfig, draftAssistant } from '@voiceplane/domain';
import { StoredSipTrunk } from './repositories';
import { PhoneNumberQueries, SipTrunkQueries } from './phone-number-queries';

/** Reading an account's numbers and SIP trunks on the in-memory stores. */

async function setup() {
  const store = new FakeStore(new Date('2030-05-01T12:00:00.000Z'));
  // Which number an inbound assistant answers on lives with the assistants in the real store.
  const inbound = new Map<number, number>();
  const phones = new InMemoryPhoneNumbers((_userId, numberId) => inbound.get(numberId) ?? null);
  const owner = await store.account();
  const other = await store.account();
  const buy = async (userId: number, phoneNumber: string) => {
    const now = store.clock.now();
    const n = await phones.numbers.insertPurchased({
      userId,
      phoneNumber,
      countryCode: 'US',
      smsCapable: true,
      monthlyPrice: 1.5,
      providerReference: null,
      purchasedAt: now,
      renewsAt: now,
    });
    if (!n) throw new Error('taken');
    store.clock.advance(1_000);
    return n;
  };
  const trunk = async (userId: number, phoneNumber: string): Promise<StoredSipTrunk> => {
    const now = store.clock.now();
    return phones.trunks.insert({
      id: await phones.trunks.reserveId(),
      userId,
      phoneNumber,
      nickname: null,
      countryCode: 'US',
      sipUsername: 'u',
      sipPasswordCipher: 'sealed',
      sipAddress: 'sip.example.test',
      sipCallingFormat: '+e164',
      inboundAuthorizationType: 'auth',
      allowedInboundIps: null,
      outboundProxy: false,
      inboundTrunkId: 'in',
      outboundTrunkId: 'out',
      inboundRouteId: 'route',
      createdAt: now,
      updatedAt: now,
    });
  };
  const assistant = async (userId: number, config: Partial<AssistantConfig>) => {
    const a = await store.assistants.create(userId, { ...draftAssistant({ name: 'A' }, SAMPLE_CATALOG), ...config });
    if (a === 'inbound_number_taken') throw new Error('taken');
    return a;
  };
  return {
    store,
    owner,
    other,
    inbound,
    buy,
    trunk,
    assistant,
    numbers: new PhoneNumberQueries(phones.numbers),
    trunks: new SipTrunkQueries(phones.trunks),
  };
}

describe('PhoneNumberQueries', () => {
  it("lists the account's own numbers, newest first", async () => {
    const s = await setup();
    const first = await s.buy(s.owner.id, '+14155550101');
    await s.buy(s.other.id, '+14155550102');
    const second = await s.buy(s.owner.id, '+14155550103');
    expect((await s.numbers.list(s.owner.id)).map((n) => n.id)).toEqual([second.id, first.id]);
    expect((await s.numbers.forAssistants(s.owner.id)).map((n) => n.id)).toEqual([second.id, first.id]);
  });

  it('offers a new inbound assistant the numbers no inbound assistant answers on, and an outbound one every number', async () => {
    const s = await setup();
    const answered = await s.buy(s.owner.id, '+14155550101');
    const calledFrom = await s.buy(s.owner.id, '+14155550102');
    const free = await s.buy(s.owner.id, '+14155550103');
    await s.buy(s.other.id, '+14155550104');
    s.inbound.set(answered.id, 7);
    await s.assistant(s.owner.id, { type: 'outbound', phoneNumberId: calledFrom.id });
    expect((await s.numbers.forAssistants(s.owner.id, 'inbound')).map((n) => n.id)).toEqual([free.id, calledFrom.id]);
    expect((await s.numbers.forAssistants(s.owner.id, 'outbound')).map((n) => n.id)).toEqual([
      free.id,
      calledFrom.id,
      answered.id,
    ]);
    expect((await s.numbers.forAssistants(s.other.id, 'inbound')).map((n) => n.id)).toHaveLength(1);
  });
});

describe('SipTrunkQueries', () => {
  it("finds and lists the account's own trunks; another account's, or an unknown id, is not found", async () => {
    const s = await setup();
    const mine = await s.trunk(s.owner.id, '+14155550111');
    const theirs = await s.trunk(s.other.id, '+14155550112');
    expect(await s.trunks.get(s.owner.id, mine.id)).toEqual({
      ok: true,
      value: expect.objectContaining({ id: mine.id, phoneNumber: '+14155550111' }),
    });
    expect(await s.trunks.get(s.owner.id, theirs.id)).toEqual({ ok: false, error: 'not_found' });
    expect(await s.trunks.get(s.owner.id, theirs.id + 100)).toEqual({ ok: false, error: 'not_found' });
    expect((await s.trunks.list(s.owner.id)).map((t) => t.id)).toEqual([mine.id]);
  });

  it('a purchased number is not a trunk', async () => {
    const s = await setup();
    const bought = await s.buy(s.owner.id, '+14155550121');
    expect(await s.trunks.get(s.owner.id, bought.id)).toEqual({ ok: false, error: 'not_found' });
  });
});
