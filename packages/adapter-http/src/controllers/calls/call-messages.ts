/** Literal messages of the calls family. */
export const CALL_MESSAGES = {
  notFound: 'Call not found',
  invalidPhone: 'Invalid phone number format. Use E.164 format (e.g., +14155551234).',
  complianceBlocked: 'This assistant is unavailable for compliance review.',
  outboundOnly: 'Only outbound assistants can place calls.',
  insufficientBalance: 'Insufficient balance.',
  noCallerLine: 'The assistant has no phone number for outbound calls.',
  dispatchFailed: 'The call could not be placed. Please try again.',
  initiated: 'Call initiated successfully',
  deleted: 'Call deleted successfully',
  inProgress: 'The call is still in progress and cannot be deleted.',
  noInboundAssistant: 'No active assistant for this number.',
  tooManyCalls: 'Too many calls in progress for your plan.',
} as const;
