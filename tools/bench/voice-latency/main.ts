/**
 * Voice-to-voice latency, time to first word and calls per core of the voice agent, heard through
 * the audio loop (testing/stand-ins/voice-agent): the agent's own call code with real audio in real time, the
 * real Silero VAD and provider plugins against stand-ins on 127.0.0.1, the composed api as control
 * plane. Every call runs in its own process, as LiveKit's worker runs each job.
 *
 *   npx tsc -b && TS_NODE_PROJECT=tsconfig.tests.json node --conditions=source -r ts-node/register/transpile-only tools/bench/voice-latency/main.ts
 *
 * Takes about ten minutes on a quiet 2-core machine. VOICE_BENCH_TURNS (20) turns for the one-call runs, VOICE_BENCH_LOAD_TURNS (5) per call under load,
 * VOICE_BENCH_CALLS ("1,5,10,20,30") the simultaneous calls, VOICE_BENCH_FIRST_WORDS (20) calls for
 * the time to first word (0, or an empty list, skips a part); DATABASE_URL as in every bench. The last line is for scripts.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { benchDatabase, runBench } from '../lib/harness';
import { benchUser, startComposedApi } from '../lib/composed-api';
import { DeepgramStandIn } from '@voiceplane/stand-ins/voice-agent/deepgram-stand-in';
import { OpenAiStreamStub } from '@voiceplane/stand-ins/voice-agent/openai-stream-stub';
import { CartesiaStandIn, ElevenLabsStandIn } from '@voiceplane/stand-ins/voice-agent/tts-stand-ins';
import type { CallOrder, CallReport } from './call';

const TURNS = Number(process.env.VOICE_BENCH_TURNS ?? 20);
const LOAD_TURNS = Number(process.env.VOICE_BENCH_LOAD_TURNS ?? 5);
const CALLS = (process.env.VOICE_BENCH_CALLS ?? '1,5,10,20,30').split(',').filter(Boolean).map(Number);
const FIRST_WORDS = Number(process.env.VOICE_BENCH_FIRST_WORDS ?? 20);
const CHILD_ENV = { TS_NODE_PROJECT: 'tsconfig.tests.json', TS_NODE_SWC: 'true' };
const BOUND_MS = 250;
/** The product's default endpoint_sensitivity 0.5: 1000 ms / 1.5. */
const ENDPOINTING_MS = Math.round(1000 / 1.5);
const FIXTURE = 'hello';
const REPLY = 'Sure.';

interface Latencies {
  readonly stt: number;
  readonly llm: number;
  readonly tts: number;
}
const INSTANT: Latencies = { stt: 0, llm: 0, tts: 0 };
const REALISTIC: Latencies = { stt: 150, llm: 300, tts: 150 };

/**
 * The least a reply can take with these providers: the turn cannot end before the endpointing
 * delay, and the reply cannot start before the transcriber's final (the stand-in, like Deepgram,
 * needs its end-of-speech silence first), the model's first token and the synthesizer's first
 * byte — LiveKit starts the model on the final transcript, before the turn has ended.
 */
const floorOf = (l: Latencies, deepgram: DeepgramStandIn) =>
  Math.max(ENDPOINTING_MS, deepgram.endSilenceMs + l.stt + l.llm + l.tts);

const pct = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
};
const load = () =>
  `load ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`;

runBench(async () => {
  const db = await benchDatabase();
  const api = await startComposedApi(db, {
    ADMIN_TOKEN: 'bench-admin-token-000001',
    RUNTIME_TOKEN: 'bench-runtime-token-00001',
  });
  const user = await benchUser(api.url, 'bench-admin-token-000001');
  const auth = { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' };
  const post = async (path: string, body: unknown) =>
    (await (
      await fetch(`${api.url}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) })
    ).json()) as Record<string, any>;
  const assistant = (
    await post('/api/user/assistant', {
      name: 'Bench',
      system_prompt: 'Be brief.',
      initial_message: 'Hello, this is Acme.',
      voice_id: 1,
    })
  ).data.id as number;

  const deepgram = await DeepgramStandIn.start();
  const elevenlabs = await ElevenLabsStandIn.start();
  const cartesia = await CartesiaStandIn.start();
  const openai = await OpenAiStreamStub.start();
  deepgram.transcripts = new Array(1_000_000).fill('Hello, is anybody there?');
  openai.fallback = { text: REPLY };
  const baseUrls = {
    deepgram: deepgram.baseUrl,
    elevenlabs: elevenlabs.baseUrl,
    cartesia: cartesia.baseUrl,
    openai: openai.baseUrl,
  };
  const setLatencies = (l: Latencies) => {
    deepgram.latencyMs = l.stt;
    openai.latencyMs = l.llm;
    elevenlabs.latencyMs = l.tts;
  };

  /** N calls at once, each in its own process; all are prewarmed and started together. */
  async function calls(n: number, turns: number, prewarm = true): Promise<CallReport[]> {
    const children: { child: ChildProcess; report: Promise<CallReport>; ready: Promise<void> }[] = [];
    for (let i = 0; i < n; i += 1) {
      const callId = (await post('/api/user/make_call', { assistant_id: assistant, phone_number: '+14155551234' }))
        .call_id as number;
      const order: CallOrder = {
        controlPlaneUrl: api.url,
        runtimeToken: 'bench-runtime-token-00001',
        callId,
        baseUrls,
        turns,
        prewarm,
        fixture: FIXTURE,
      };
      const child = fork(join(__dirname, 'call.ts'), [], {
        env: { ...process.env, ...CHILD_ENV, VOICE_BENCH_CALL: JSON.stringify(order) },
        execArgv: [
          '--conditions=source',
          '-r',
          'ts-node/register/transpile-only',
          ...(process.env.VOICE_BENCH_CHILD_ARGS ?? '').split(' ').filter(Boolean),
        ],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      let readyResolve!: () => void;
      const ready = new Promise<void>((r) => (readyResolve = r));
      const report = new Promise<CallReport>((resolve) => {
        child.on('message', (m: { ready?: boolean; report?: CallReport }) => {
          if (m.ready) readyResolve();
          if (m.report) resolve(m.report);
        });
        child.on('exit', (code) => {
          readyResolve();
          resolve({ firstWordMs: null, latenciesMs: [], cpuMs: 0, maxRssMb: 0, error: `exited ${code}` });
        });
      });
      children.push({ child, report, ready });
    }
    await Promise.all(children.map((c) => c.ready));
    for (const c of children) if (c.child.connected) c.child.send('go'); // a child that died starting has reported already
    return Promise.all(children.map((c) => c.report));
  }

  const errors = (reports: CallReport[]) => reports.filter((r) => r.error).map((r) => r.error);
  console.log(
    `voice-latency bench: ${cpus().length} cores, endpointing ${ENDPOINTING_MS} ms, fixture "${FIXTURE}", reply "${REPLY}"; ${load()}`,
  );

  const oneCall: Record<string, number> = {};
  for (const [name, l] of TURNS > 0
    ? ([
        ['instant', INSTANT],
        ['realistic', REALISTIC],
      ] as const)
    : []) {
    setLatencies(l);
    const [r] = await calls(1, TURNS);
    const floor = floorOf(l, deepgram);
    const p50 = pct(r.latenciesMs, 50);
    const p95 = pct(r.latenciesMs, 95);
    oneCall[name] = p95 - floor;
    console.log(
      `1 call, ${name} stand-ins (stt ${l.stt} / llm ${l.llm} / tts ${l.tts} ms): voice-to-voice p50 ${p50} ms, p95 ${p95} ms over ${r.latenciesMs.length} turns; floor ${floor} ms; platform p50 ${p50 - floor} ms, p95 ${p95 - floor} ms; ${load()}${r.error ? `; ERROR ${r.error}` : ''}`,
    );
  }

  setLatencies(INSTANT);
  const firstWords: Record<string, number> = {};
  for (const prewarm of FIRST_WORDS > 0 ? [false, true] : []) {
    const times: number[] = [];
    const sessions: number[] = [];
    const greetings: number[] = [];
    const greetingCpus: number[] = [];
    for (let i = 0; i < FIRST_WORDS; i += 1) {
      const [r] = await calls(1, 0, prewarm);
      if (r.firstWordMs !== null) times.push(r.firstWordMs);
      if (r.phasesMs) sessions.push(r.phasesMs.session);
      if (r.phasesMs) greetings.push(r.phasesMs.greeting);
      if (r.phasesMs) greetingCpus.push(r.phasesMs.greetingCpu);
    }
    firstWords[String(prewarm)] = pct(times, 95);
    console.log(
      `time to first word (job start to the first greeting frame, instant stand-ins, ${prewarm ? 'prewarmed' : 'not prewarmed'}): p50 ${pct(times, 50)} ms, p95 ${pct(times, 95)} ms over ${times.length} calls (config, models and session start p50 ${pct(sessions, 50)} ms, answer to first frame p50 ${pct(greetings, 50)} ms, of which CPU p50 ${pct(greetingCpus, 50)} ms, p95 ${pct(greetingCpus, 95)} ms); ${load()}`,
    );
  }

  setLatencies(REALISTIC);
  const underLoad: Record<number, { p95: number; ok: boolean }> = {};
  for (const n of CALLS) {
    const started = Date.now();
    const reports = await calls(n, LOAD_TURNS);
    const latencies = reports.flatMap((r) => r.latenciesMs);
    const floor = floorOf(REALISTIC, deepgram);
    const p95 = pct(latencies, 95) - floor;
    const failed = errors(reports);
    underLoad[n] = { p95, ok: failed.length === 0 && latencies.length === n * LOAD_TURNS && p95 <= BOUND_MS };
    const cpu = reports.reduce((s, r) => s + r.cpuMs, 0) / n;
    const seconds = (Date.now() - started) / 1000;
    const rss = reports.reduce((s, r) => s + r.maxRssMb, 0) / n;
    console.log(
      `${n} simultaneous calls, realistic: voice-to-voice p95 ${pct(latencies, 95)} ms, platform p95 ${p95} ms (bound ${BOUND_MS}); CPU per call ${(cpu / 1000).toFixed(1)} s over ${seconds.toFixed(0)} s (${((cpu / 1000 / seconds) * 100).toFixed(0)} % of a core); resident memory per call ${rss.toFixed(0)} MB (its own process); ${load()}${failed.length ? `; ${failed.length} call(s) failed: ${failed[0]}` : ''}`,
    );
  }
  const perMachine = Math.max(0, ...CALLS.filter((n) => underLoad[n].ok));

  await Promise.all([deepgram.close(), elevenlabs.close(), cartesia.close(), openai.close()]);
  await api.close();
  await db.close();
  const twenty = underLoad[20] ? `${underLoad[20].p95}` : 'n/a';
  console.log(
    `voice-latency: platform p95 ${oneCall.realistic} ms (1 call), ${twenty} ms (20 calls); first word p95 ${firstWords.true} ms; calls per machine ${perMachine}`,
  );
  process.exit(0);
});
