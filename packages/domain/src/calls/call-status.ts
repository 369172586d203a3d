import { err, ok, Result } from '../common/result';

export type CallStatus =
  | 'initiated'
  | 'queued'
  | 'ringing'
  | 'in-progress'
  | 'completed'
  | 'busy'
  | 'no-answer'
  | 'failed'
  | 'canceled';
export type TerminalCallStatus = Extract<CallStatus, 'completed' | 'busy' | 'no-answer' | 'failed' | 'canceled'>;
export type RuntimeEventType = 'ringing' | 'answered' | 'transcript' | 'ended';

export const CALL_STATUSES: readonly CallStatus[] = [
  'initiated',
  'queued',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'no-answer',
  'failed',
  'canceled',
];
export const TERMINAL_STATUSES: readonly TerminalCallStatus[] = [
  'completed',
  'busy',
  'no-answer',
  'failed',
  'canceled',
];

export const isTerminal = (s: CallStatus): s is TerminalCallStatus =>
  (TERMINAL_STATUSES as readonly string[]).includes(s);

export type CallTransition =
  /** The status moves (or a transcript is appended while in progress). */
  | { readonly kind: 'moved'; readonly to: CallStatus }
  /** Accepted, nothing changes (repeated ringing/answered, same terminal status again). */
  | { readonly kind: 'unchanged' };

export type InvalidTransition = {
  readonly code: 'invalid_transition';
  readonly from: CallStatus;
  readonly event: RuntimeEventType;
  readonly to: CallStatus | null;
};

/** The runtime-event table, exactly. `endedAs` is the status an `ended` event carries. */
export function applyRuntimeEvent(
  from: CallStatus,
  event: RuntimeEventType,
  endedAs?: TerminalCallStatus,
): Result<CallTransition, InvalidTransition> {
  const refuse = (to: CallStatus | null = null) =>
    err<InvalidTransition>({ code: 'invalid_transition', from, event, to });
  if (isTerminal(from)) {
    if (event === 'ended' && endedAs === from) return ok({ kind: 'unchanged' });
    return refuse(event === 'ended' ? (endedAs ?? null) : eventTarget(event));
  }
  switch (event) {
    case 'ringing':
      if (from === 'initiated' || from === 'queued') return ok({ kind: 'moved', to: 'ringing' });
      if (from === 'ringing') return ok({ kind: 'unchanged' });
      return refuse('ringing');
    case 'answered':
      if (from === 'in-progress') return ok({ kind: 'unchanged' });
      return ok({ kind: 'moved', to: 'in-progress' });
    case 'transcript':
      return from === 'in-progress' ? ok({ kind: 'moved', to: 'in-progress' }) : refuse('in-progress');
    case 'ended': {
      if (!endedAs) return refuse();
      const answered = from === 'in-progress';
      const allowed: readonly TerminalCallStatus[] = answered
        ? ['completed', 'failed', 'canceled']
        : ['busy', 'no-answer', 'failed', 'canceled'];
      return allowed.includes(endedAs) ? ok({ kind: 'moved', to: endedAs }) : refuse(endedAs);
    }
  }
}

function eventTarget(event: RuntimeEventType): CallStatus {
  return event === 'ended' ? 'completed' : event === 'ringing' ? 'ringing' : 'in-progress';
}
