import { isWindowOpen } from '../chatapp/window';
import { err, Result } from '../shared/result';
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

/** What the checks after `INVALID_PHONE` need to know; the application gathers it. */
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
  | { readonly code: 'VOICE_DISABLED' }
  | { readonly code: 'REGION_NOT_SUPPORTED'; readonly country: string }
  | { readonly code: 'TEMPLATE_NOT_FOUND' }
  | { readonly code: 'SESSION_CLOSED' }
  | AskLimitRefusal;

/** The preflight word for each refusal. */
export type PermissionRequestReason = 'voice_disabled' | 'region_not_supported' | 'template_missing' | 'session_closed' | AskLimitRefusal['reason'];

/**
 * The permission-request checks from `VOICE_DISABLED` to `REQUEST_LIMIT`, in that order: the first failing check. The user
 * quota, validation, sender lookup and phone format come before; the provider send after.
 */
export function decidePermissionRequest(facts: PermissionRequestFacts, now: Date): Result<AskUsage, PermissionRequestRefusal> {
  if (!facts.senderCallingEnabled || !facts.planCallingEnabled) return err({ code: 'VOICE_DISABLED' });
  if (facts.senderCountry !== null && senderRegionRefusesCalls(facts.senderCountry)) {
    return err({ code: 'REGION_NOT_SUPPORTED', country: facts.senderCountry.toUpperCase() });
  }
  if (!facts.hasRequestTemplate) return err({ code: 'TEMPLATE_NOT_FOUND' });
  if (!customerSessionOpen(facts.lastCustomerMessageAt, now)) return err({ code: 'SESSION_CLOSED' });
  return checkAskLimits(facts.permission, now);
}

export function permissionRequestReason(refusal: PermissionRequestRefusal): PermissionRequestReason {
  switch (refusal.code) {
    case 'VOICE_DISABLED':
      return 'voice_disabled';
    case 'REGION_NOT_SUPPORTED':
      return 'region_not_supported';
    case 'TEMPLATE_NOT_FOUND':
      return 'template_missing';
    case 'SESSION_CLOSED':
      return 'session_closed';
    case 'REQUEST_LIMIT':
      return refusal.reason;
  }
}
