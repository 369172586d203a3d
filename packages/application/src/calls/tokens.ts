import { token } from '../common';
import type { AcceptInboundCall } from './accept-inbound-call';
import type { CallQueries } from './call-queries';
import type { CallRecordings } from './call-recordings';
import type { DeleteCall } from './delete-call';
import type { MakeCall } from './make-call';
import type { CallRepository, SandboxCallControls, VoiceRuntime } from './ports';
import type { RecordCallEvent } from './record-call-event';
import type { SandboxTextCalls } from './sandbox-text-call';

export const CALL_TOKENS = {
  CallRepository: token<CallRepository>('CallRepository'),
  VoiceRuntime: token<VoiceRuntime>('VoiceRuntime'),
  MakeCall: token<MakeCall>('MakeCall'),
  RecordCallEvent: token<RecordCallEvent>('RecordCallEvent'),
  AcceptInboundCall: token<AcceptInboundCall>('AcceptInboundCall'),
  CallRecordings: token<CallRecordings>('CallRecordings'),
  CallQueries: token<CallQueries>('CallQueries'),
  DeleteCall: token<DeleteCall>('DeleteCall'),
  /** Bound only while the voice runtime is the sandbox (`answer`, `finish`). */
  SandboxCallControls: token<SandboxCallControls>('SandboxCallControls'),
  /** Bound only while the voice runtime is the sandbox (`say`). */
  SandboxTextCalls: token<SandboxTextCalls>('SandboxTextCalls'),
} as const;
