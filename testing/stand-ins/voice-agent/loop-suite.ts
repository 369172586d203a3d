import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { initializeLogger } from '@livekit/agents';
import { createTestApi, eventually, type TestApi, type TestUser } from '@voiceplane/test-env';
import { ControlPlane } from '../../../apps/voice-agent/src/control-plane';
import { createAssistant, getCall, makeCall } from '../calls/fixtures';
import { WebhookReceiver } from '../fault/webhook-receiver';
import type { AssistantEar } from './audio-loop';
import {
  loopCall,
  resetProviders,
  standInEnv,
  startProviders,
  stopProviders,
  type LoopCall,
  type Providers,
} from './loop-call';

/**
 * The set-up every audio-loop suite shares: the composed app on 127.0.0.1 (the agent reaches it
 * over the runtime routes only), the provider stand-ins, a tool receiver, and answered calls.
 */
export interface LoopSuite {
  readonly t: TestApi;
  readonly owner: TestUser;
  readonly providers: Providers;
  readonly receiver: WebhookReceiver;
  /** An assistant with these fields, a call, the agent holding it in the loop, the customer on the line. */
  answered(fields: Record<string, unknown>, options?: { dead?: boolean }): Promise<AnsweredCall>;
  transcript(callId: number): Promise<string[]>;
  call(
    callId: number,
  ): Promise<{ status: string; ended_reason: string | null; transcript_items: { role: string; content: string }[] }>;
}

export type AnsweredCall = LoopCall &
  Extract<LoopCall['held'], { ok: true }> & { readonly callId: number; readonly answeredAt: number };

/** Short turn taking so a test does not wait out the defaults (250 ms endpointing and interruption). */
export const QUICK = { endpoint_sensitivity: 3, interrupt_sensitivity: 3 };

/**
 * Retries short enough that a failing provider ends a call within seconds, limits long enough that
 * a loaded machine (a late timer, a slow event loop) is not taken for a failing provider.
 */
const RETRIES = {
  llmConnOptions: { maxRetry: 0, timeoutMs: 8000 },
  sttConnOptions: { maxRetry: 1, retryIntervalMs: 100 },
  ttsConnOptions: { maxRetry: 1, retryIntervalMs: 100 },
  watchLimits: { deafSpeechMs: 1500, deafWaitMs: 5000, muteMs: 10_000 },
};

export function loopSuite(): LoopSuite {
  const state = {} as {
    t: TestApi;
    server: Server;
    controlPlane: ControlPlane;
    providers: Providers;
    receiver: WebhookReceiver;
    owner: TestUser;
  };
  const calls: LoopCall[] = [];
  beforeAll(async () => {
    initializeLogger({ pretty: false, level: process.env.LOOP_LOG ?? 'silent' });
    state.t = await createTestApi({ startBackground: false });
    state.server = createServer(state.t.runtime.app);
    await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
    state.controlPlane = new ControlPlane(
      `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`,
      state.t.runtime.runtimeToken,
      { attempts: 2, firstDelayMs: 10, timeoutMs: 5000 },
    );
    state.providers = await startProviders();
    state.receiver = await WebhookReceiver.start(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"status":"shipped"}',
    }));
    state.owner = await state.t.createUser();
  });
  afterAll(async () => {
    for (const c of calls) await c.close();
    await stopProviders(state.providers);
    await state.receiver.close();
    state.server.closeAllConnections();
    await new Promise((resolve) => state.server.close(resolve));
    await state.t.close();
  });
  beforeEach(() => resetProviders(state.providers));
  afterEach(async () => {
    while (calls.length > 0) await calls.pop()!.close();
  });

  return {
    get t() {
      return state.t;
    },
    get owner() {
      return state.owner;
    },
    get providers() {
      return state.providers;
    },
    get receiver() {
      return state.receiver;
    },
    async answered(fields, options = {}) {
      const assistant = await createAssistant(state.t, state.owner, { ...QUICK, ...fields });
      const callId = await makeCall(state.t, state.owner, assistant);
      const call = await loopCall({
        callId,
        controlPlane: state.controlPlane,
        env: standInEnv(state.providers),
        dead: options.dead,
        retries: RETRIES,
      });
      calls.push(call);
      if (!call.held.ok) throw new Error(call.held.problems.join('; '));
      const answeredAt = Date.now();
      await call.held.hold.customerAnswered();
      return { ...call, ...call.held, callId, answeredAt };
    },
    async transcript(callId) {
      return (
        (await getCall(state.t, state.owner, callId)).transcript_items as { role: string; content: string }[]
      ).map((i) => `${i.role}: ${i.content}`);
    },
    call: (callId) => getCall(state.t, state.owner, callId),
  };
}

/** Waits until everything the assistant started saying has played (or was cut off). */
export const playedOut = (ear: AssistantEar, segments = 1) =>
  eventually(
    async () => ear.segments.length >= segments && ear.segments.every((s) => s.finished),
    `${segments} assistant segment(s) played out`,
  );

/** Waits for the first assistant audio heard at or after `t`; returns when it was heard. */
export async function heardAfter(ear: AssistantEar, t: number, what: string): Promise<number> {
  await eventually(async () => ear.firstHeardAfter(t) !== null, what);
  return ear.firstHeardAfter(t)!.at;
}
