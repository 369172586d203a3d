import { E164_PATTERN } from '../assistants/built-in-tools';
import { err, ok, Result } from '../common/result';
import { ChatappPrices, InsufficientBalance, priceFreeformSend, priceTemplateSend, SendCharge } from './pricing';
import { checkSenderCanSend, Sender, SenderOffline } from './sender';
import { SessionStatus, sessionStatus } from './session-status';
import { checkTemplateCanSend, MessageTemplate, TemplateNotApproved } from './template';
import { renderTemplate, TemplateVariableInput, TemplateVariablesMissing } from './template-placeholders';
import { ChatWindow } from './window';

/**
 * The checks of a send that the domain can decide, in the contract's order. Rate
 * limit and validation come before them, the media fetch and the provider after them.
 */
export type SenderNotFound = { readonly code: 'sender_not_found' };
export type TemplateNotFound = { readonly code: 'template_not_found' };
export type InvalidPhone = { readonly code: 'invalid_phone' };
/** Carries the session status the 403 body includes. */
export type SessionExpired = { readonly code: 'session_expired'; readonly sessionStatus: SessionStatus };

export type TemplateSendRefusal =
  | SenderNotFound
  | TemplateNotFound
  | InvalidPhone
  | SenderOffline
  | TemplateNotApproved
  | TemplateVariablesMissing
  | InsufficientBalance;
export type FreeformSendRefusal = SenderNotFound | InvalidPhone | SenderOffline | SessionExpired | InsufficientBalance;

export interface TemplateSendInput {
  /** Null when missing or another user's (indistinguishable). */
  readonly sender: Pick<Sender, 'id' | 'status'> | null;
  readonly template: Pick<MessageTemplate, 'senderId' | 'status' | 'bodyText' | 'variables'> | null;
  readonly recipientPhone: string;
  readonly variables: Readonly<Record<string, TemplateVariableInput>>;
  readonly allowanceRemaining: number;
  readonly balance: number;
  readonly prices: ChatappPrices;
}

export interface TemplateSendPlan {
  /** The rendered text: the stored message body and what the provider sends. */
  readonly body: string;
  readonly charge: SendCharge;
}

export function decideTemplateSend(input: TemplateSendInput): Result<TemplateSendPlan, TemplateSendRefusal> {
  const { sender, template } = input;
  if (sender === null) return err({ code: 'sender_not_found' });
  if (template === null || template.senderId !== sender.id) return err({ code: 'template_not_found' });
  if (!E164_PATTERN.test(input.recipientPhone)) return err({ code: 'invalid_phone' });
  const online = checkSenderCanSend(sender.status);
  if (!online.ok) return online;
  const approved = checkTemplateCanSend(template.status);
  if (!approved.ok) return approved;
  const body = renderTemplate(template.bodyText, template.variables, input.variables);
  if (!body.ok) return body;
  const charge = priceTemplateSend(input.allowanceRemaining, input.balance, input.prices);
  if (!charge.ok) return charge;
  return ok({ body: body.value, charge: charge.value });
}

export interface FreeformSendInput {
  readonly sender: Pick<Sender, 'status'> | null;
  readonly recipientPhone: string;
  /** The conversation's window; null when no conversation exists with the recipient. */
  readonly window: ChatWindow | null;
  readonly balance: number;
  readonly prices: ChatappPrices;
}

export interface FreeformSendPlan {
  /** Returned with the success body; a freeform send does not extend the window. */
  readonly sessionStatus: SessionStatus;
  readonly charge: SendCharge;
}

export function decideFreeformSend(input: FreeformSendInput, now: Date): Result<FreeformSendPlan, FreeformSendRefusal> {
  if (input.sender === null) return err({ code: 'sender_not_found' });
  if (!E164_PATTERN.test(input.recipientPhone)) return err({ code: 'invalid_phone' });
  const online = checkSenderCanSend(input.sender.status);
  if (!online.ok) return online;
  const status = sessionStatus(input.window, now);
  if (!status.isOpen) return err({ code: 'session_expired', sessionStatus: status });
  const charge = priceFreeformSend(input.balance, input.prices);
  if (!charge.ok) return charge;
  return ok({ sessionStatus: status, charge: charge.value });
}
