import type { voice } from '@livekit/agents';
import type { CallLine, Log } from '../../../apps/voice-agent/src/call-hold';
import { holdCall, type CallJob } from '../../../apps/voice-agent/src/call-job';
import type { ControlPlane } from '../../../apps/voice-agent/src/control-plane';
import { AssistantEar, CustomerLine } from './audio-loop';
import { DeepgramStandIn } from './deepgram-stand-in';
import { OpenAiStreamStub } from './openai-stream-stub';
import { CartesiaStandIn, ElevenLabsStandIn } from './tts-stand-ins';

/**
 * One call through the audio loop: the agent's own `holdCall` (the code a LiveKit job runs) with
 * every provider pointed at its stand-in by base URL, the customer line and the ear as the
 * session's audio input and output, and a recorder for the phone line's actions.
 */

export interface Providers {
  readonly deepgram: DeepgramStandIn;
  readonly elevenlabs: ElevenLabsStandIn;
  readonly cartesia: CartesiaStandIn;
  readonly openai: OpenAiStreamStub;
}

export async function startProviders(): Promise<Providers> {
  const [deepgram, elevenlabs, cartesia, openai] = await Promise.all([
    DeepgramStandIn.start(),
    ElevenLabsStandIn.start(),
    CartesiaStandIn.start(),
    OpenAiStreamStub.start(),
  ]);
  return { deepgram, elevenlabs, cartesia, openai };
}

export async function stopProviders(p: Providers): Promise<void> {
  await Promise.all([p.deepgram.close(), p.elevenlabs.close(), p.cartesia.close(), p.openai.close()]);
}

export function resetProviders(p: Providers): void {
  p.deepgram.reset();
  p.elevenlabs.reset();
  p.cartesia.reset();
  p.openai.reset();
}

/** The agent's provider settings with every provider on its stand-in. */
export function standInEnv(p: Providers): CallJob['env'] {
  return {
    keys: { deepgram: 'dg-test', elevenlabs: 'el-test', cartesia: 'ca-test', openai: 'sk-test' },
    openaiBaseUrl: p.openai.baseUrl,
    baseUrls: { deepgram: p.deepgram.baseUrl, elevenlabs: p.elevenlabs.baseUrl, cartesia: p.cartesia.baseUrl },
  };
}

export class RecordingLine implements CallLine {
  readonly actions: string[] = [];
  async hangUp() {
    this.actions.push('hang_up');
  }
  async transfer(to: string, brief: (() => Promise<void>) | null) {
    this.actions.push(`transfer ${to}${brief ? ' (warm)' : ''}`);
    if (brief) await brief();
  }
  async sendDtmf(digits: string) {
    this.actions.push(`dtmf ${digits}`);
  }
  async collectDigits() {
    return '';
  }
}

const print = (level: string) => (fields: object, message: string) =>
  process.env.LOOP_LOG && console.log(level, message, fields);
/** Silent unless LOOP_LOG is set (then it also sets LiveKit's log level). */
export const quietLog: Log = { info: print('info'), warn: print('warn'), error: print('error') };

export interface LoopCall {
  readonly customer: CustomerLine;
  readonly ear: AssistantEar;
  readonly line: RecordingLine;
  readonly held: Awaited<ReturnType<typeof holdCall>>;
  close(): Promise<void>;
}

export async function loopCall(options: {
  readonly callId: number;
  readonly controlPlane: ControlPlane;
  readonly env: CallJob['env'];
  readonly dead?: boolean;
  readonly log?: Log;
  readonly retries?: Pick<CallJob, 'llmConnOptions' | 'sttConnOptions' | 'ttsConnOptions' | 'watchLimits'>;
}): Promise<LoopCall> {
  const config = await options.controlPlane.callConfig(options.callId);
  const customer = new CustomerLine({ dead: options.dead });
  const ear = new AssistantEar();
  const line = new RecordingLine();
  let session: voice.AgentSession | null = null;
  const held = await holdCall({
    callId: options.callId,
    config,
    env: options.env,
    controlPlane: options.controlPlane,
    line,
    clock: { now: () => new Date() },
    log: options.log ?? quietLog,
    ...options.retries,
    start: async (s, agent) => {
      session = s;
      s.input.audio = customer;
      s.output.audio = ear;
      await s.start({ agent });
    },
  });
  return {
    customer,
    ear,
    line,
    held,
    close: async () => {
      await customer.close();
      await (session as voice.AgentSession | null)?.close().catch(() => undefined);
    },
  };
}
