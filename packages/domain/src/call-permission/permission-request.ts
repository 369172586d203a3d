import { isWindowOpen } from '../chatapp/window';
import { err, Result } from '../common/result';
import { CallPermission } from './call-permission';
import { AskLimitRefusal, AskUsage, checkAskLimits } from './permission-asks';
import { senderRegionRefusesCalls } from './sender-region';

/**
 * `session_open`: the window as the customer's own messages alone would hold it open —
 * a template send (the request template included) does not let the business ask again.
 */
export function customerSessionOpen(lastCustomerMessageAt: Date | null, now: Date): boolean {
  return isWindowOpen({ lastCustomerMessageAt, lastTemplateSentAt: null }, now);
}

/** What the checks after `invalid_phone` need to know; the application gathers it. */
export interface PermissionRequestFacts {
  /** Plan `chatapp_calling_enabled`. */
  readonly planCallingEnabled: boolean;
  /** Sender `calling_enabled`. */
  readonly senderCallingEnabled: boolean;
  /** Sender `country_code`. */
  readonly senderCountry: string | null;
  /** An approved `voice_call_request` template of the sender was found (the given one, or the default). */
  readonly hasRequestTemplate: boolean;
  readonly lastCustomerMessageAt: Date | null;
  readonly permission: CallPermission;
}

export type PermissionRequestRefusal =
  | { readonly code: 'voice_disabled' }
  | { readonly code: 'region_not_supported'; readonly country: string }
  | { readonly code: 'template_missing' }
  | { readonly code: 'session_closed' }
  | AskLimitRefusal;

/** The preflight's word for a refusal: its code, or for a limit which limit. */
export type PermissionRequestReason =
  | Exclude<PermissionRequestRefusal['code'], 'request_limit'>
  | AskLimitRefusal['reason'];

/**
 * The permission-request checks from `voice_disabled` to `request_limit`, in that order: the first failing check. The user
 * quota, validation, sender lookup and phone format come before; the provider send after.
 */
export function decidePermissionRequest(
  facts: PermissionRequestFacts,
  now: Date,
): Result<AskUsage, PermissionRequestRefusal> {
  if (!facts.senderCallingEnabled || !facts.planCallingEnabled) return err({ code: 'voice_disabled' });
  if (facts.senderCountry !== null && senderRegionRefusesCalls(facts.senderCountry)) {
    return err({ code: 'region_not_supported', country: facts.senderCountry.toUpperCase() });
  }
  if (!facts.hasRequestTemplate) return err({ code: 'template_missing' });
  if (!customerSessionOpen(facts.lastCustomerMessageAt, now)) return err({ code: 'session_closed' });
  return checkAskLimits(facts.permission, now);
}

export function permissionRequestReason(refusal: PermissionRequestRefusal): PermissionRequestReason {
  return refusal.code === 'request_limit' ? refusal.reason : refusal.code;
}
