import {
  aiReplyFate,
  ChatappPrices,
  checkSenderCanSend,
  Conversation,
  decideFreeformSend,
  err,
  FreeformSendRefusal,
  InsufficientBalance,
  isWindowOpen,
  ok,
  priceFreeformSend,
  priceTemplateSend,
  Result,
  Sender,
  SendCharge,
} from '@voiceplane/domain';

/** The state a send is decided on, read under the user's balance lock and the conversation's lock (`balance` less open reservations). */
export interface SendState {
  /** Null when the recipient has no conversation and the send does not create one. */
  readonly conversation: Conversation | null;
  readonly balance: number;
  readonly allowanceRemaining: number;
  readonly now: Date;
}

/**
 * Which rule prices a send under its locks. A value rather than a function: the reservation
 * judges it again there, because a concurrent send may have spent the balance or moved the window.
 */
export type SendRule =
  /** The call-permission request: free, like any template it extends the window. */
  | { readonly kind: 'free' }
  /** Allowance first, then the template price. */
  | { readonly kind: 'template'; readonly prices: ChatappPrices }
  /** Every freeform check in its order (sender, phone, window, balance). */
  | { readonly kind: 'freeform'; readonly prices: ChatappPrices }
  /** Discarded when AI was switched off or a newer customer message came in since `customerMessageAt`. */
  | { readonly kind: 'ai_reply'; readonly prices: ChatappPrices; readonly customerMessageAt: Date };

export type AiReplyRefusal =
  | { readonly code: 'discarded' }
  | { readonly code: 'insufficient_balance' }
  | { readonly code: 'sender_offline' };

/** Why a send of rule `R` is refused under its locks. */
export type RuleRefusal<R extends SendRule> = R extends { kind: 'template' }
  ? InsufficientBalance
  : R extends { kind: 'freeform' }
    ? FreeformSendRefusal
    : R extends { kind: 'ai_reply' }
      ? AiReplyRefusal
      : never;

type AnyRefusal = InsufficientBalance | FreeformSendRefusal | AiReplyRefusal;

/** The charge of a send to `recipientPhone` from `sender` on the state read under its locks, or why it is refused. */
export function chargeUnderLocks<R extends SendRule>(
  rule: R,
  sender: Sender,
  recipientPhone: string,
  state: SendState,
): Result<SendCharge, RuleRefusal<R>> {
  return judge(rule, sender, recipientPhone, state) as Result<SendCharge, RuleRefusal<R>>;
}

function judge(rule: SendRule, sender: Sender, recipientPhone: string, s: SendState): Result<SendCharge, AnyRefusal> {
  switch (rule.kind) {
    case 'free':
      return ok({ source: 'balance', amount: 0 });
    case 'template':
      return priceTemplateSend(s.allowanceRemaining, s.balance, rule.prices);
    case 'freeform': {
      const window = s.conversation?.window ?? null;
      const decided = decideFreeformSend(
        { sender, recipientPhone, window, balance: s.balance, prices: rule.prices },
        s.now,
      );
      return decided.ok ? ok(decided.value.charge) : decided;
    }
    case 'ai_reply': {
      const locked = s.conversation;
      if (
        locked === null ||
        aiReplyFate(locked, rule.customerMessageAt) === 'discard' ||
        !isWindowOpen(locked.window, s.now)
      )
        return err({ code: 'discarded' });
      if (!checkSenderCanSend(sender.status).ok) return err({ code: 'sender_offline' });
      return priceFreeformSend(s.balance, rule.prices);
    }
  }
}
