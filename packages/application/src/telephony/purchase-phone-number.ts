import { canAfford, err, needsRegisteredAddress, nextRenewal, ok, Result } from '@voiceplane/domain';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { UserRepository } from '../ports';
import { BalanceService } from '../billing';
import { AvailableNumber, NumberInventory, OperationsLog } from './ports';
import { PhoneNumber, PhoneNumberRepository } from './repositories';
import { failureText } from './failure-text';

export type PurchaseError = 'not_available' | 'address_required' | 'insufficient_balance' | 'failed';

class Refused extends Error {
  constructor(readonly reason: PurchaseError) {
    super(reason);
  }
}

export interface PurchasePhoneNumberDeps {
  readonly uow: UnitOfWork;
  readonly numbers: PhoneNumberRepository;
  readonly users: UserRepository;
  readonly balances: BalanceService;
  readonly inventory: NumberInventory;
  readonly clock: Clock;
  readonly log: OperationsLog;
}

/**
 * A number some account owns is never sold again; numbers that need a
 * registered address are refused; the balance must cover the first month. The provider purchase
 * happens before the row and the charge are stored together; if storing fails the number is given
 * back.
 */
export class PurchasePhoneNumber {
  constructor(private readonly d: PurchasePhoneNumberDeps) {}

  async execute(
    userId: number,
    phoneNumber: string,
    requestId: string | null,
  ): Promise<Result<PhoneNumber, PurchaseError>> {
    if ((await this.d.numbers.purchasedAmong([phoneNumber])).has(phoneNumber)) return err('not_available');
    const holder = { accountId: userId, phoneNumberId: null };
    let offer: AvailableNumber | null;
    try {
      offer = await this.d.inventory.find(phoneNumber, holder);
    } catch (e) {
      this.d.log.error({ userId, error: failureText(e) }, 'Number purchase: inventory lookup failed');
      return err('failed');
    }
    if (!offer) return err('not_available');
    if (needsRegisteredAddress(offer.addressRequirements)) return err('address_required');
    const user = await this.d.users.findById(userId);
    if (!user || !canAfford(user.balance, offer.price)) return err('insufficient_balance');

    let bought: { reference: string | null } | null;
    try {
      bought = await this.d.inventory.purchase(offer, holder);
    } catch (e) {
      this.d.log.error({ userId, error: failureText(e) }, 'Number purchase failed at the provider');
      return err('failed');
    }
    if (!bought) return err('not_available');

    const now = this.d.clock.now();
    const chosen = offer;
    try {
      return ok(
        await this.d.uow.transaction(
          async () => {
            // Locks in one order: the account first, then the new number row. Inserting first let two
            // purchases of one account each hold the row's foreign-key share lock while waiting for the
            // other's to take the balance lock: a deadlock (201/402/409, never 500).
            const balance = await this.d.users.lockBalance(userId);
            if (balance === null || !canAfford(balance, chosen.price)) throw new Refused('insufficient_balance');
            const row = await this.d.numbers.insertPurchased({
              userId,
              phoneNumber: chosen.phoneNumber,
              countryCode: chosen.countryCode,
              smsCapable: chosen.smsCapable,
              monthlyPrice: chosen.price,
              providerReference: bought.reference,
              purchasedAt: now,
              renewsAt: nextRenewal(now, now),
            });
            if (!row) throw new Refused('not_available');
            const charged = await this.d.balances.charge({
              userId,
              price: chosen.price,
              description: `Phone number ${chosen.phoneNumber} (first month)`,
              reference: { type: 'phone_number', id: row.id },
              requestId,
            });
            if (!charged.ok) throw new Refused('insufficient_balance');
            return row;
          },
          { concludes: (row) => ok(row) },
        ),
      );
    } catch (e) {
      try {
        await this.d.inventory.release(chosen.phoneNumber, bought.reference, holder);
      } catch (releaseError) {
        this.d.log.error(
          { userId, phoneNumber: chosen.phoneNumber, error: failureText(releaseError) },
          'Number purchase: could not give back a number that was not stored',
        );
      }
      if (e instanceof Refused) return err(e.reason);
      this.d.log.error({ userId, error: failureText(e) }, 'Number purchase: storing the number failed');
      return err('failed');
    }
  }
}
