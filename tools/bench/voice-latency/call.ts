/**
 * One call of the voice-latency bench, in its own process as LiveKit runs each job: optionally
 * prewarmed (plugins and the Silero model, as the job process's prewarm does), then on "go" the
 * job starts — config read, models, session, answer (inbound: at once) — and the greeting is timed,
 * then the customer speaks `turns` times and each reply is timed from the end of the customer's
 * speech to the first assistant frame heard.
 */
import { prewarmSpeech } from '../../../apps/voice-agent/src/build-session';
import { ControlPlane } from '../../../apps/voice-agent/src/control-plane';
import { initializeLogger } from '@livekit/agents';
import { loopCall } from '@voiceplane/stand-ins/voice-agent/loop-call';

export interface CallOrder {
  readonly controlPlaneUrl: string;
  readonly runtimeToken: string;
  readonly callId: number;
  readonly baseUrls: { deepgram: string; elevenlabs: string; cartesia: string; openai: string };
  readonly turns: number;
  readonly prewarm: boolean;
  readonly fixture: string;
}

export interface CallReport {
  readonly firstWordMs: number | null;
  /** Where the first word's time went: config read + models + session start, then the answer to the first frame. */
  readonly phasesMs?: {
    readonly session: number;
    readonly greeting: number;
    /** CPU the call process used from the answer to the first frame: the platform's work, whatever the machine's load. */
    readonly greetingCpu: number;
  };
  readonly latenciesMs: number[];
  readonly cpuMs: number;
  readonly maxRssMb: number;
  readonly error?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) return false;
    await sleep(5);
  }
  return true;
}

/**
 * As the agent runs in production (compiled, without source maps: see docker-compose.yml), not as
 * ts-node runs this script: its source-map support maps every stack LiveKit's stream code creates,
 * reading and decoding the packages' maps on the call's first words (≈ 110 ms of CPU per process).
 */
if (!process.env.VOICE_BENCH_SOURCE_MAPS) delete (Error as { prepareStackTrace?: unknown }).prepareStackTrace;

async function main(): Promise<void> {
  initializeLogger({ pretty: false, level: process.env.VOICE_BENCH_LOG || 'silent' });
  const order = JSON.parse(process.env.VOICE_BENCH_CALL ?? '{}') as CallOrder;
  let maxRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (maxRss = Math.max(maxRss, process.memoryUsage().rss)), 100);
  if (order.prewarm) await prewarmSpeech();
  process.send!({ ready: true });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));

  const cpuStart = process.cpuUsage();
  const jobStart = Date.now();
  const controlPlane = new ControlPlane(order.controlPlaneUrl, order.runtimeToken);
  const call = await loopCall({
    callId: order.callId,
    controlPlane,
    env: {
      keys: { deepgram: 'dg-bench', elevenlabs: 'el-bench', cartesia: 'ca-bench', openai: 'sk-bench' },
      openaiBaseUrl: order.baseUrls.openai,
      baseUrls: {
        deepgram: order.baseUrls.deepgram,
        elevenlabs: order.baseUrls.elevenlabs,
        cartesia: order.baseUrls.cartesia,
      },
    },
  });
  if (!call.held.ok) throw new Error(call.held.problems.join('; '));
  const { hold } = call.held;
  const answeredAt = Date.now();
  const answeredCpu = process.cpuUsage();
  if (process.env.VOICE_BENCH_LOG) console.error(JSON.stringify({ time: answeredAt, msg: 'MARK answered' }));
  await hold.customerAnswered();
  const greeted = await until(() => call.ear.heard.length > 0, 15_000);
  const greetingCpu = process.cpuUsage(answeredCpu);
  if (process.env.VOICE_BENCH_LOG && greeted)
    console.error(JSON.stringify({ time: call.ear.heard[0].at, msg: 'MARK first frame' }));
  const firstWordMs = greeted ? call.ear.heard[0].at - jobStart : null;
  const phasesMs = greeted
    ? {
        session: answeredAt - jobStart,
        greeting: call.ear.heard[0].at - answeredAt,
        greetingCpu: (greetingCpu.user + greetingCpu.system) / 1000,
      }
    : undefined;

  const latenciesMs: number[] = [];
  let error: string | undefined;
  for (let i = 0; i < order.turns; i += 1) {
    await until(() => call.ear.segments.every((s) => s.finished) && !call.ear.playing(), 30_000);
    await sleep(300 + Math.random() * 300); // a person's pause before answering
    const spoken = await call.customer.say(order.fixture);
    if (!(await until(() => call.ear.firstHeardAfter(spoken.endedAt) !== null, 15_000))) {
      error = `turn ${i + 1}: no reply within 15 s`;
      break;
    }
    latenciesMs.push(call.ear.firstHeardAfter(spoken.endedAt)!.at - spoken.endedAt);
  }
  await until(() => call.ear.segments.every((s) => s.finished), 15_000);
  await hold.end({ status: 'completed', reason: 'customer_hangup' });
  await call.close();
  const cpu = process.cpuUsage(cpuStart);
  clearInterval(sampler);
  const report: CallReport = {
    firstWordMs,
    phasesMs,
    latenciesMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMb: maxRss / 2 ** 20,
    error,
  };
  process.send!({ report }, () => process.exit(0));
}

main().catch((e) => {
  process.send?.(
    { report: { firstWordMs: null, latenciesMs: [], cpuMs: 0, maxRssMb: 0, error: String(e?.stack ?? e) } },
    () => process.exit(1),
  );
});
