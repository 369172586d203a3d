import { applyRuntimeEvent, CallStatus, RuntimeEventType, TerminalCallStatus } from './call-status';

type Row = [CallStatus, RuntimeEventType, TerminalCallStatus | undefined, CallStatus | 'unchanged' | 409];

/** Every cell of the transition table. */
const table: Row[] = [
  ['initiated', 'ringing', undefined, 'ringing'],
  ['queued', 'ringing', undefined, 'ringing'],
  ['initiated', 'answered', undefined, 'in-progress'],
  ['queued', 'answered', undefined, 'in-progress'],
  ['initiated', 'transcript', undefined, 409],
  ['queued', 'transcript', undefined, 409],
  ...(['busy', 'no-answer', 'failed', 'canceled'] as const).flatMap((s): Row[] => [
    ['initiated', 'ended', s, s],
    ['queued', 'ended', s, s],
    ['ringing', 'ended', s, s],
  ]),
  ['initiated', 'ended', 'completed', 409],
  ['ringing', 'ended', 'completed', 409],
  ['ringing', 'ringing', undefined, 'unchanged'],
  ['ringing', 'answered', undefined, 'in-progress'],
  ['ringing', 'transcript', undefined, 409],
  ['in-progress', 'ringing', undefined, 409],
  ['in-progress', 'answered', undefined, 'unchanged'],
  ['in-progress', 'transcript', undefined, 'in-progress'],
  ['in-progress', 'ended', 'completed', 'completed'],
  ['in-progress', 'ended', 'failed', 'failed'],
  ['in-progress', 'ended', 'canceled', 'canceled'],
  ['in-progress', 'ended', 'busy', 409],
  ['in-progress', 'ended', 'no-answer', 409],
  ['completed', 'ringing', undefined, 409],
  ['completed', 'answered', undefined, 409],
  ['completed', 'transcript', undefined, 409],
  ['completed', 'ended', 'completed', 'unchanged'],
  ['completed', 'ended', 'failed', 409],
  ['busy', 'ended', 'busy', 'unchanged'],
  ['no-answer', 'ended', 'canceled', 409],
];

describe('call runtime events', () => {
  it.each(table)('%s + %s(%s) → %s', (from, event, endedAs, expected) => {
    const r = applyRuntimeEvent(from, event, endedAs);
    if (expected === 409) expect(r.ok).toBe(false);
    else if (expected === 'unchanged') expect(r).toEqual({ ok: true, value: { kind: 'unchanged' } });
    else expect(r).toEqual({ ok: true, value: { kind: 'moved', to: expected } });
  });
});
