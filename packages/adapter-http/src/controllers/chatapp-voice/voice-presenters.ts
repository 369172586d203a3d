import { CallPermissionReadout, PreflightAction } from '@voiceplane/domain';
import { CallPermissionView } from '@voiceplane/application';

const iso = (d: Date | null): string | null => d?.toISOString() ?? null;

/** The permission object, keys in the contract's order; `actions` only on the preflight. */
export function presentPermission(view: CallPermissionView, withActions: boolean): Record<string, unknown> {
  const r = view.readout;
  return {
    sender_id: view.senderId,
    customer_phone: view.customerPhone,
    conversation_id: view.conversationUuid,
    status: r.status,
    is_permanent: r.isPermanent,
    can_call: r.canCall,
    can_request: r.canRequest,
    session_open: r.sessionOpen,
    expires_at: iso(r.expiresAt),
    requested_at: iso(r.requestedAt),
    responded_at: iso(r.respondedAt),
    ...(withActions ? { actions: r.actions.map(presentAction) } : {}),
  };
}

function presentAction(
  action: CallPermissionReadout['actions'][number] | PreflightAction<string>,
): Record<string, unknown> {
  return {
    action_name: action.actionName,
    can_perform: action.canPerform,
    reason: action.reason,
    next_allowed_at: iso(action.nextAllowedAt),
    limits: action.limits.map((l) => ({
      time_period: l.timePeriod,
      max_allowed: l.maxAllowed,
      current_usage: l.currentUsage,
      limit_expiration_time: iso(l.limitExpirationTime),
    })),
  };
}
