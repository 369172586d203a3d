import {
  NewPurchasedNumber,
  PhoneNumber,
  PhoneNumberRepository,
  SipTrunkIdentity,
  SipTrunkRepository,
  StoredSipTrunk,
} from '@voiceplane/application';
import { copy } from '../copy';

type SipDetails = Omit<
  StoredSipTrunk,
  'id' | 'userId' | 'phoneNumber' | 'nickname' | 'countryCode' | 'createdAt' | 'updatedAt'
>;

/**
 * An account's numbers in memory: purchased numbers and SIP trunks share one sequence of ids and
 * one list, as they share the phone-numbers table, so a trunk is listed among the numbers and
 * deleting its number deletes the trunk. Build both repositories on one instance.
 */
export class InMemoryPhoneNumbers {
  readonly numbers: PhoneNumberRepository;
  readonly trunks: SipTrunkRepository;
  private readonly rows = new Map<number, PhoneNumber>();
  private readonly sip = new Map<number, SipDetails>();
  private lastId = 0;

  /** `inboundAssistantOf`: the assistant answering on a number (the assistants live elsewhere). */
  constructor(inboundAssistantOf: (userId: number, phoneNumberId: number) => number | null = () => null) {
    this.numbers = new NumberRepository(this, inboundAssistantOf);
    this.trunks = new TrunkRepository(this);
  }

  /** @internal */ nextId(): number {
    return ++this.lastId;
  }

  /** @internal */ all(): PhoneNumber[] {
    return [...this.rows.values()];
  }

  /** @internal */ row(id: number): PhoneNumber | undefined {
    return this.rows.get(id);
  }

  /** @internal */ sipOf(id: number): SipDetails | undefined {
    return this.sip.get(id);
  }

  /** @internal */ put(row: PhoneNumber, sip?: SipDetails): void {
    this.rows.set(row.id, copy(row));
    if (sip) this.sip.set(row.id, copy(sip));
  }

  /** @internal */ remove(id: number): void {
    this.rows.delete(id);
    this.sip.delete(id);
  }
}

class NumberRepository implements PhoneNumberRepository {
  constructor(
    private readonly store: InMemoryPhoneNumbers,
    private readonly inboundAssistantOf: (userId: number, id: number) => number | null,
  ) {}

  async list(userId: number): Promise<PhoneNumber[]> {
    return this.store
      .all()
      .filter((n) => n.userId === userId)
      .sort((a, b) => b.id - a.id)
      .map((n) => this.shown(n));
  }

  async find(userId: number, id: number): Promise<PhoneNumber | null> {
    const n = this.store.row(id);
    return n && n.userId === userId ? this.shown(n) : null;
  }

  async purchasedAmong(phoneNumbers: readonly string[]): Promise<Set<string>> {
    return new Set(
      this.store
        .all()
        .filter((n) => n.type === 'purchased' && phoneNumbers.includes(n.phoneNumber))
        .map((n) => n.phoneNumber),
    );
  }

  async insertPurchased(n: NewPurchasedNumber): Promise<PhoneNumber | null> {
    // A purchased number belongs to one account.
    if (this.store.all().some((row) => row.type === 'purchased' && row.phoneNumber === n.phoneNumber)) return null;
    const row: PhoneNumber = {
      id: this.store.nextId(),
      userId: n.userId,
      phoneNumber: n.phoneNumber,
      type: 'purchased',
      countryCode: n.countryCode,
      nickname: null,
      smsCapable: n.smsCapable,
      monthlyPrice: n.monthlyPrice,
      inboundAssistantId: null,
      providerReference: n.providerReference,
      renewsAt: n.renewsAt,
      createdAt: n.purchasedAt,
      updatedAt: n.purchasedAt,
    };
    this.store.put(row);
    return copy(row);
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const n = this.store.row(id);
    if (!n || n.userId !== userId) return false;
    this.store.remove(id);
    return true;
  }

  async claimDueRenewal(now: Date): Promise<PhoneNumber | null> {
    const due = this.store
      .all()
      .filter((n) => n.type === 'purchased' && n.renewsAt !== null && n.renewsAt.getTime() <= now.getTime())
      .sort((a, b) => a.renewsAt!.getTime() - b.renewsAt!.getTime() || a.id - b.id);
    return due[0] ? { ...copy(due[0]), inboundAssistantId: null } : null;
  }

  async rename(userId: number, id: number, nickname: string | null, at: Date): Promise<PhoneNumber | null> {
    const n = this.store.row(id);
    if (!n || n.userId !== userId) return null;
    this.store.put({ ...n, nickname, updatedAt: new Date(at) });
    return this.find(userId, id);
  }

  async setRenewsAt(id: number, renewsAt: Date): Promise<void> {
    const n = this.store.row(id);
    if (n) this.store.put({ ...n, renewsAt });
  }

  private shown(n: PhoneNumber): PhoneNumber {
    return { ...copy(n), inboundAssistantId: this.inboundAssistantOf(n.userId, n.id) };
  }
}

class TrunkRepository implements SipTrunkRepository {
  constructor(private readonly store: InMemoryPhoneNumbers) {}

  async list(userId: number): Promise<StoredSipTrunk[]> {
    return this.store
      .all()
      .filter((n) => n.userId === userId && n.type === 'sip')
      .sort((a, b) => b.id - a.id)
      .map((n) => this.trunkOf(n));
  }

  async find(userId: number, id: number): Promise<StoredSipTrunk | null> {
    const n = this.store.row(id);
    return n && n.userId === userId && n.type === 'sip' ? this.trunkOf(n) : null;
  }

  async reserveId(): Promise<number> {
    return this.store.nextId();
  }

  /** One event loop runs one test's writes: nothing interleaves inside a use case's transaction. */
  async lockAccount(): Promise<void> {}

  async hasDuplicate(userId: number, identity: SipTrunkIdentity, exceptId: number | null): Promise<boolean> {
    return (await this.list(userId)).some(
      (t) =>
        t.id !== exceptId &&
        t.phoneNumber === identity.phoneNumber &&
        t.sipUsername === identity.sipUsername &&
        t.sipAddress.toLowerCase() === identity.sipAddress.toLowerCase(),
    );
  }

  async insert(t: StoredSipTrunk): Promise<StoredSipTrunk> {
    const { id, userId, phoneNumber, nickname, countryCode, createdAt, updatedAt, ...sip } = t;
    this.store.put(
      {
        id,
        userId,
        phoneNumber,
        type: 'sip',
        countryCode,
        nickname,
        smsCapable: false,
        monthlyPrice: null,
        inboundAssistantId: null,
        providerReference: null,
        renewsAt: null,
        createdAt,
        updatedAt,
      },
      sip,
    );
    return (await this.find(userId, id))!;
  }

  async update(t: StoredSipTrunk, readAt: Date): Promise<StoredSipTrunk | null> {
    const n = this.store.row(t.id);
    if (!n || n.userId !== t.userId || n.type !== 'sip' || n.updatedAt.getTime() !== readAt.getTime()) return null;
    const { id, userId, phoneNumber, nickname, countryCode, createdAt: _createdAt, updatedAt, ...sip } = t;
    this.store.put({ ...n, phoneNumber, nickname, countryCode, updatedAt }, sip);
    return this.find(userId, id);
  }

  private trunkOf(n: PhoneNumber): StoredSipTrunk {
    return copy({
      ...this.store.sipOf(n.id)!,
      id: n.id,
      userId: n.userId,
      phoneNumber: n.phoneNumber,
      nickname: n.nickname,
      countryCode: n.countryCode,
      createdAt: n.createdAt,
      updatedAt: n.updatedAt,
    });
  }
}
