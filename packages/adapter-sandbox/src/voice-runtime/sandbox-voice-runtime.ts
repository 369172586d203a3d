import {
  Call,
  CallerLine,
  CallOutcome,
  err,
  isTerminal,
  recordingMediaKey,
  recordingUrlOf,
  TerminalCallStatus,
} from '@voiceplane/domain';
import {
  CallEventAnswer,
  CallEventRefusal,
  CallRepository,
  CallToPlace,
  Ids,
  MediaStore,
  RecordCallEvent,
  RuntimeEvent,
  SandboxCallControls,
  SandboxFinish,
  VoiceRuntime,
} from '@voiceplane/application';
import type { Result } from '@voiceplane/domain';
import { ArmedFaults } from '../telephony/armed-faults';
import { SANDBOX_RECORDING_TYPE, sandboxRecordingWav } from './sandbox-recording';

/** The line sandbox calls leave from when their assistant has no number (never missing in sandbox). */
export const SANDBOX_PLATFORM_LINE: CallerLine = { phoneNumberId: null, phoneNumber: '+15005550000', sip: null };

/** Customer numbers whose calls end right after ringing, and why. */
export const SANDBOX_MAGIC_NUMBERS: Readonly<
  Record<string, { readonly status: TerminalCallStatus; readonly reason: string }>
> = {
  '+15005550001': { status: 'busy', reason: 'customer_busy' },
  '+15005550002': { status: 'no-answer', reason: 'no_answer' },
  '+15005550003': { status: 'failed', reason: 'dial_failed' },
};

/** Post-call extraction when the sandbox `finish` gives none. */
export const SANDBOX_EXTRACTION: Readonly<Record<string, unknown>> = { status: true, summary: 'Sandbox call.' };

/** Where a sandbox call's recording is said to be when the runtime has no media store to put one in. */
export const sandboxRecordingUrl = (callId: number): string =>
  `https://sandbox.voiceplane.invalid/recordings/${callId}.mp3`;

/** Why a sandbox call ended when `finish` does not say: what the voice agent reports for the same end. */
export const SANDBOX_ENDED_REASONS: Readonly<Record<TerminalCallStatus, string>> = {
  completed: 'customer_hangup',
  failed: 'provider_error',
  'no-answer': 'no_answer',
  busy: 'customer_busy',
  canceled: 'customer_hangup',
};

/**
 * Where the sandbox keeps its recordings: the media store the recording route reads, and the base
 * of the address it reports (`<base>/api/user/calls/{id}/recording`, as a LiveKit call's).
 */
export interface SandboxRecordingStore {
  readonly media: MediaStore;
  readonly publicBaseUrl: string;
}

/**
 * The voice runtime simulated in-process: a dispatched call rings at once and
 * then waits for the sandbox `answer`/`finish` — or, for the magic numbers, ends right away. Everything it reports goes
 * through the same ingress a real runtime uses, so the sandbox exercises the real state machine.
 * Deterministic: no timers, every report is made before the call that caused it returns.
 */
export class SandboxVoiceRuntime implements VoiceRuntime, SandboxCallControls {
  readonly platformLine = SANDBOX_PLATFORM_LINE;
  /**
   * Sandbox fault `call_dispatch`: the next placements fail (the dispatch is refused). `target_id` names the
   * phone number the call leaves from, like the other telephony faults.
   */
  readonly faults = new ArmedFaults('call_dispatch');

  constructor(
    private readonly events: RecordCallEvent,
    private readonly calls: CallRepository,
    private readonly ids: Ids,
    private readonly recordings: SandboxRecordingStore | null = null,
  ) {}

  async placeCall(call: CallToPlace): Promise<void> {
    this.faults.check({ accountId: call.userId, phoneNumberId: call.line.phoneNumberId });
    await this.report(call.callId, 'sandbox-ringing', { type: 'ringing' });
    const magic = SANDBOX_MAGIC_NUMBERS[call.customerPhone];
    if (magic)
      await this.report(call.callId, 'sandbox-outcome', {
        type: 'ended',
        outcome: { status: magic.status, endedReason: magic.reason },
      });
  }

  async answer(userId: number, callId: number): Promise<Result<CallEventAnswer, CallEventRefusal>> {
    if ((await this.calls.findOwned(userId, callId)) === null) return err({ code: 'call_not_found' });
    return this.events.record(callId, { eventId: this.eventId(), occurredAt: null, event: { type: 'answered' } });
  }

  async finish(
    userId: number,
    callId: number,
    finish: SandboxFinish,
  ): Promise<Result<CallEventAnswer, CallEventRefusal>> {
    const call = await this.calls.findOwned(userId, callId);
    if (call === null) return err({ code: 'call_not_found' });
    let answered = call.status === 'in-progress';
    if (finish.status === 'completed' && !answered && !isTerminal(call.status)) {
      const pickUp = await this.events.record(callId, {
        eventId: this.eventId(),
        occurredAt: null,
        event: { type: 'answered' },
      });
      if (!pickUp.ok) return pickUp;
      answered = true;
    }
    const outcome: CallOutcome = {
      status: finish.status,
      duration: finish.duration,
      transcript: finish.transcript,
      extractedVariables: finish.extractedVariables ?? SANDBOX_EXTRACTION,
      // Only a connected call has something to record.
      recordingUrl: finish.recordingUrl !== undefined ? finish.recordingUrl : answered ? await this.record(call) : null,
      endedReason: finish.endedReason ?? SANDBOX_ENDED_REASONS[finish.status],
    };
    return this.events.record(callId, { eventId: this.eventId(), occurredAt: null, event: { type: 'ended', outcome } });
  }

  /**
   * The recording's address. With a media store, a short WAV is stored under the call's recording key
   * before the end is reported, so the address never points at a file that is not there yet; only
   * for a call that is still open and whose assistant records (the end keeps no address otherwise).
   */
  private async record(call: Call): Promise<string> {
    if (this.recordings === null) return sandboxRecordingUrl(call.id);
    const { media, publicBaseUrl } = this.recordings;
    if (!isTerminal(call.status) && call.runtimeConfig.assistant.record)
      await media.put(recordingMediaKey(call.id), [sandboxRecordingWav()], SANDBOX_RECORDING_TYPE);
    return recordingUrlOf(publicBaseUrl, call.id);
  }

  private eventId(): string {
    return this.ids.token('sbx_', 22);
  }

  private async report(callId: number, eventId: string, event: RuntimeEvent): Promise<void> {
    const answer = await this.events.record(callId, { eventId, occurredAt: null, event });
    if (!answer.ok)
      throw new Error(
        `The sandbox runtime could not report ${event.type} for call ${callId}: ${JSON.stringify(answer.error)}`,
      );
  }
}
