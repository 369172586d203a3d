import { decideSmsSend, err, ok, Result, SmsPrices, SmsRefusal } from '@voiceplane/domain';
import { BalanceService } from '../billing';
import { UserRepository } from '../ports';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { SendReservationRepository } from '../chatapp';
import { PhoneNumberRepository } from '../telephony';
import { SmsMessage, SmsMessageRepository, SmsProvider, SmsProviderRefusal } from './ports';

export interface SmsSendRequest {
  readonly userId: number;
  /** The id of one of the account's phone numbers. */
  readonly fromNumberId: number;
  readonly to: string;
  readonly body: string;
  readonly requestId?: string | null;
}

/** The provider refused the message or could not be reached; nothing was charged. */
export type SmsSendFailed = { readonly code: 'send_failed'; readonly reason: string };
export type SendSmsRefusal = SmsRefusal | SmsSendFailed;

const UNREACHABLE_REASON = 'The SMS provider could not be reached.';

export interface SendSmsStores {
  readonly uow: UnitOfWork;
  readonly users: UserRepository;
  readonly numbers: PhoneNumberRepository;
  readonly messages: SmsMessageRepository;
  /** Open chat-app sends hold part of the same balance. */
  readonly chatappReservations: SendReservationRepository;
}

/**
 * `POST /api/user/sms`, in the three steps of every paid send, so no transaction is open while
 * the provider answers:
 * 1. reserve: under the account's balance lock, the decision is taken on the balance less what
 *    open sends hold (SMS and chat-app), and the message is recorded `pending` with its cost —
 *    N concurrent sends on a balance for k pay for exactly k;
 * 2. the provider is asked, no lock held, with the message id as its reference;
 * 3. taken: the message is settled and charged in one transaction under the same lock (it commits
 *    the request's answer too); refused or unreachable: the message is released, nothing charged.
 */
export class SendSms {
  private readonly uow: UnitOfWork;
  private readonly users: UserRepository;
  private readonly numbers: PhoneNumberRepository;
  private readonly messages: SmsMessageRepository;
  private readonly chatappReservations: SendReservationRepository;

  constructor(
    stores: SendSmsStores,
    private readonly provider: SmsProvider,
    private readonly balance: BalanceService,
    private readonly prices: SmsPrices,
    private readonly clock: Clock,
  ) {
    ({
      uow: this.uow,
      users: this.users,
      numbers: this.numbers,
      messages: this.messages,
      chatappReservations: this.chatappReservations,
    } = stores);
  }

  /** `outcome`: the caller's result made from the send's, committed with the charge (see `TransactionOptions.concludes`). */
  async execute(
    request: SmsSendRequest,
    outcome?: (sent: Result<SmsMessage, SendSmsRefusal>) => unknown,
  ): Promise<Result<SmsMessage, SendSmsRefusal>> {
    const number = await this.numbers.find(request.userId, request.fromNumberId);
    const reserved = await this.uow.transaction(async (): Promise<Result<SmsMessage, SmsRefusal>> => {
      const locked = (await this.users.lockBalance(request.userId)) ?? 0;
      const held =
        (await this.messages.held(request.userId)) + (await this.chatappReservations.held(request.userId)).amount;
      const decided = decideSmsSend({
        from: number,
        to: request.to,
        body: request.body,
        balance: locked - held,
        prices: this.prices,
      });
      if (!decided.ok) return decided;
      const d = decided.value;
      return ok(
        await this.messages.reserve({
          userId: request.userId,
          phoneNumberId: request.fromNumberId,
          from: d.from,
          to: d.to,
          body: request.body,
          encoding: d.encoding,
          segments: d.segments,
          cost: d.cost,
          requestId: request.requestId ?? null,
          now: this.clock.now(),
        }),
      );
    });
    if (!reserved.ok) return reserved;
    const message = reserved.value;

    let providerMessageId: string;
    try {
      ({ providerMessageId } = await this.provider.send({
        userId: message.userId,
        phoneNumberId: message.phoneNumberId,
        from: message.from,
        to: message.to,
        body: message.body,
        reference: message.id,
      }));
    } catch (e) {
      const reason = e instanceof SmsProviderRefusal ? e.reason : UNREACHABLE_REASON;
      await this.messages.release(message.id, reason, this.clock.now());
      return err({ code: 'send_failed', reason });
    }
    return this.settle(message, providerMessageId, outcome);
  }

  /**
   * Records and charges a message the provider took. Also the sweep's way to settle a send whose
   * process died; then another settlement first is no error (`null`).
   */
  settle(
    message: SmsMessage,
    providerMessageId: string,
    outcome?: (sent: Result<SmsMessage, SendSmsRefusal>) => unknown,
  ): Promise<Result<SmsMessage, SendSmsRefusal>> {
    return this.uow.transaction(
      async () => {
        const balance = (await this.users.lockBalance(message.userId)) ?? 0;
        const settled = await this.messages.settle(message.id, providerMessageId, this.clock.now());
        if (settled === null) throw new Error(`SMS ${message.id} was settled by someone else`);
        if (settled.cost > 0) {
          // The reservation held the cost against every other send, so only a charge outside (a
          // call's end, a renewal) can have spent it meanwhile; the message went out and is paid for.
          const charged = await this.balance.charge({
            userId: message.userId,
            price: settled.cost,
            description: `SMS to ${settled.to} (${settled.segments} segment${settled.segments === 1 ? '' : 's'})`,
            reference: { type: 'sms_message', id: settled.id },
            mayGoNegative: true,
            requestId: settled.requestId,
            heldBalance: balance,
          });
          if (!charged.ok) throw new Error(`SMS ${settled.id} could not be charged: ${charged.error.code}`);
        }
        return ok(settled) as Result<SmsMessage, SendSmsRefusal>;
      },
      { concludes: outcome ?? true },
    );
  }
}
