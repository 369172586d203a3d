import { llm, voice } from '@livekit/agents';
import {
  BUILT_IN_REFUSALS,
  DO_NOT_CALL_DONE,
  conversationTexts,
  dtmfDigits,
  handOver,
  keypadResult,
  resolveToolCall,
  toolFunctions,
  type ConversationTexts,
} from '@voiceplane/application';
import type { BuiltInTool, RuntimeConfig } from '@voiceplane/domain';
import { CallReporter, type CallEnd } from './call-reporter';
import type { CallJob, Held } from './call-job';
import { CallKnowledge, withKnowledge } from './knowledge';
import { PROVIDER_WATCH_LIMITS, ProviderWatch } from './provider-watch';
import { SilenceWatch } from './silence';
import { loadModels, sessionOptions, synthesizeAhead, type SynthesizedAhead } from './build-session';
import { planSpeech, type SpeechPlan } from './speech-plan';

/** What the agent does to the phone line itself; the LiveKit room implements it (`livekit-line.ts`). */
export interface CallLine {
  /** Ends the phone leg for everyone on it. */
  hangUp(): Promise<void>;
  /** Hands the customer to `phoneNumber`; `brief` (warm transfer) speaks to the colleague before the agent leaves. */
  transfer(phoneNumber: string, brief: (() => Promise<void>) | null): Promise<void>;
  sendDtmf(digits: string): Promise<void>;
  /** Keys the customer presses until `stopKey` or `timeoutS` seconds without a key (the stop key is not returned). */
  collectDigits(stopKey: string, timeoutS: number): Promise<string>;
}

export interface Log {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

const APOLOGIES: Readonly<Record<string, string>> = {
  en: 'I am sorry, we are having a technical problem and have to end this call. Please try again later.',
  de: 'Es tut mir leid, wir haben ein technisches Problem und müssen das Gespräch beenden. Bitte versuchen Sie es später noch einmal.',
  fr: 'Je suis désolé, nous rencontrons un problème technique et devons mettre fin à cet appel. Veuillez réessayer plus tard.',
  es: 'Lo siento, tenemos un problema técnico y debemos terminar esta llamada. Por favor, inténtelo más tarde.',
};
const SPEECH_WAIT_MS = 10_000;
/**
 * LiveKit serialises a tool's result as JSON for the model; the gateway's content is already JSON
 * text (or plain text), so it is handed over parsed and reaches the model exactly as the gateway wrote it.
 */
function asToolOutput(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}
const withTimeout = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);

/**
 * Holds one call from its config to the `ended` report: plans the speech, loads the models, starts
 * the session (or ends the call `configuration_error` when the config cannot be run, never a silent
 * line), and then owns the agent (instructions and tools from the conversation policy), what it
 * reports, the time limits, the built-in tools and the failure endings. Knows nothing of rooms: the
 * line does what touches the phone leg, so the whole of it runs in text mode.
 */
export class CallHold {
  private session: voice.AgentSession | null = null;
  private plan!: SpeechPlan;
  private readonly deps: CallJob;
  private readonly reporter: CallReporter;
  private texts: ConversationTexts;
  private ending: Promise<void> | null = null;
  private timers: NodeJS.Timeout[] = [];
  private silence: SilenceWatch | null = null;
  private readonly watch: ProviderWatch;
  private failing = false;
  private recordingUrl: string | null = null;
  private greetingAhead: SynthesizedAhead | null = null;
  private readonly endedSignal: { promise: Promise<CallEnd>; resolve: (end: CallEnd) => void };

  constructor(job: CallJob) {
    this.deps = job;
    this.reporter = new CallReporter(job.callId, job.controlPlane, job.clock, (event, e) =>
      job.log.error({ err: e, event: event.event_id }, 'a call event could not be reported'),
    );
    this.texts = conversationTexts(job.config, job.clock.now());
    let resolve!: (end: CallEnd) => void;
    this.endedSignal = { promise: new Promise<CallEnd>((r) => (resolve = r)), resolve };
    this.watch = new ProviderWatch(job.watchLimits ?? PROVIDER_WATCH_LIMITS, (type) => {
      void this.providerFailed({
        type,
        error: new Error(
          type === 'stt_error'
            ? "the transcriber gave no words for the customer's speech"
            : 'the reply was never spoken',
        ),
      });
    });
  }

  /** Resolves with the end the agent reported. */
  get ended(): Promise<CallEnd> {
    return this.endedSignal.promise;
  }

  /** From the config to a running session, or to the call ended `failed` with `configuration_error`. */
  async open(): Promise<Held> {
    const planned = planSpeech(this.deps.config, this.deps.env.keys);
    if (!planned.ok) return this.refuse(planned.problems);
    this.plan = planned.plan;
    let models;
    try {
      models = await loadModels(this.plan, this.deps.env, { textOnly: this.deps.textOnly });
    } catch (e) {
      return this.refuse([`a speech plugin could not be loaded: ${(e as Error).message}`]);
    }
    const { llmConnOptions, sttConnOptions, ttsConnOptions } = this.deps;
    const session = new voice.AgentSession({
      ...sessionOptions(this.plan, models),
      // The agent decides what an unrecoverable LLM/TTS error means (one apology, then the end), not the session.
      connOptions: { maxUnrecoverableErrors: 1000, llmConnOptions, sttConnOptions, ttsConnOptions },
    });
    this.attach(session);
    try {
      await this.deps.start(session, this.agentFor(this.deps.config));
    } catch (e) {
      return this.refuse([`the session did not start: ${(e as Error).message}`]);
    }
    return { ok: true, hold: this, session };
  }

  private async refuse(problems: readonly string[]): Promise<Held> {
    this.deps.log.error({ call_id: this.deps.callId, problems }, 'the call cannot be held with this configuration');
    await this.end({ status: 'failed', reason: 'configuration_error' });
    return { ok: false, problems };
  }

  /** Another assistant's models (`assistant_transfer`): its model and voice; none when its config cannot be run. */
  private async speechOf(config: RuntimeConfig): Promise<Partial<voice.AgentOptions<unknown>>> {
    const planned = planSpeech(config, this.deps.env.keys);
    if (!planned.ok) return {};
    const m = await loadModels(planned.plan, this.deps.env, { textOnly: this.deps.textOnly });
    return { llm: m.llm, ...(m.tts ? { tts: m.tts } : {}) };
  }

  /**
   * The agent of an assistant config: the policy's instructions and functions, executed here, and
   * its knowledge base read over the runtime search route (`knowledge.ts`). A
   * `greeting` is said once the agent is active, so it joins the agent's own conversation.
   */
  agentFor(
    config: RuntimeConfig,
    overrides: Partial<voice.AgentOptions<unknown>> = {},
    greeting: string | null = null,
  ): voice.Agent {
    const texts = config === this.deps.config ? this.texts : conversationTexts(config, this.deps.clock.now());
    const tools: Record<string, ReturnType<typeof llm.tool>> = {};
    for (const fn of toolFunctions(config)) {
      tools[fn.name] = llm.tool({
        description: fn.description,
        parameters: fn.parameters as unknown as Record<string, unknown>,
        execute: (args: Record<string, unknown>, options) => this.runTool(config, fn.name, args ?? {}, options),
      });
    }
    const knowledge = CallKnowledge.of(config, this.deps.callId, this.deps.controlPlane, this.deps.log);
    Object.assign(tools, knowledge?.tools() ?? {});
    const options = { instructions: texts.instructions, tools, ...overrides };
    const Base = knowledge?.mode === 'prompt' ? withKnowledge(voice.Agent, knowledge) : voice.Agent;
    if (greeting === null) return new Base(options);
    const greet = () => this.say(greeting);
    return new (class extends Base {
      override async onEnter(): Promise<void> {
        greet();
      }
    })(options);
  }

  /** Follows the session's events: transcript items, turn activity for the silence rules, provider failures. */
  private attach(session: voice.AgentSession): void {
    this.session = session;
    // The greeting is known before the answer: its synthesis starts now (the ring, the session's start).
    const { plan } = this;
    if (plan.assistantSpeaksFirst && plan.engine !== 'realtime' && session.tts && this.texts.initialMessage.trim())
      this.greetingAhead = synthesizeAhead(session.tts, this.texts.initialMessage);
    session.on(voice.AgentSessionEventTypes.ConversationItemAdded, (ev) => {
      const item = ev.item;
      if (!(item instanceof llm.ChatMessage)) return;
      const text = item.textContent ?? '';
      if (item.role === 'user') void this.reporter.said('customer', text, new Date(ev.createdAt));
      else if (item.role === 'assistant') void this.reporter.said('assistant', text, new Date(ev.createdAt));
    });
    const { stt, tts } = this.plan;
    session.on(voice.AgentSessionEventTypes.UserStateChanged, (ev) => {
      if (ev.newState !== 'speaking' && ev.oldState !== 'speaking') return;
      this.silence?.customerSpeaking(Date.now(), ev.newState === 'speaking');
      if (stt) this.watch.customerSpeaking(Date.now(), ev.newState === 'speaking');
    });
    session.on(voice.AgentSessionEventTypes.UserInputTranscribed, (ev) => {
      if (ev.transcript.trim() !== '') this.watch.transcribed();
    });
    session.on(voice.AgentSessionEventTypes.AgentStateChanged, (ev) => {
      if (tts) this.watch.assistantState(ev.newState);
      if (ev.newState === 'speaking' || ev.oldState === 'speaking')
        this.silence?.assistantSpeaking(Date.now(), ev.newState === 'speaking');
    });
    session.on(voice.AgentSessionEventTypes.Error, (ev) => {
      const error = ev.error;
      if (error.recoverable) return;
      // LiveKit closes the session right after this event when the transcriber or the realtime model
      // failed, which would cut the apology off mid-word; marking the error as handled keeps the session
      // open until the agent has apologised and ends the call itself.
      if (error.type === 'stt_error' || error.type === 'realtime_model_error') error.recoverable = true;
      void this.providerFailed(error);
    });
    session.on(voice.AgentSessionEventTypes.Close, (ev) => {
      // A session that closes on its own: the customer left, or a provider it cannot live without failed.
      if (ev.error) void this.end({ status: 'failed', reason: 'provider_error' });
      else void this.end({ status: 'completed', reason: 'customer_hangup' });
    });
  }

  /**
   * Holds the open call to its end: the answer as the line learns it (at once for inbound calls;
   * a line that gives up has ended the call through `end`), the greeting and the clocks, then what
   * the line adds once the customer is on (recording, ambient sound, voicemail detection).
   */
  async run(line: { answer(): Promise<boolean>; answered?(): Promise<void> }): Promise<CallEnd> {
    if (await line.answer()) {
      await this.customerAnswered();
      await line.answered?.();
    }
    return this.ended;
  }

  /** The customer's phone rings (outbound calls). */
  customerRinging(): Promise<void> {
    return this.reporter.ringing();
  }

  /** The customer is on the line: report it, start the clocks, greet unless the customer speaks first. */
  async customerAnswered(): Promise<void> {
    // The greeting does not wait for the report's round trip: reports go out in order, so
    // `answered` still reaches the control plane before the greeting's transcript item.
    const reported = this.reporter.answered();
    const { limits } = this.plan;
    this.timers.push(
      setTimeout(
        () => void this.end({ status: 'completed', reason: 'max_duration' }),
        limits.maxDurationS * 1000,
      ).unref(),
    );
    this.silence = new SilenceWatch(limits, Date.now());
    this.timers.push(setInterval(() => this.checkSilence(), 1000).unref());
    if (this.plan.assistantSpeaksFirst && this.session) this.greet();
    await reported;
  }

  /**
   * The greeting, with the audio synthesised ahead unless that synthesis already ended without a
   * frame (a failed synthesizer): then the usual way, whose failure the session reports.
   */
  private greet(): void {
    const ahead = this.greetingAhead;
    this.greetingAhead = null;
    const text = this.texts.initialMessage;
    if (!ahead || ahead.failed || this.ending) {
      ahead?.cancel();
      if (!this.ending) this.say(text);
      return;
    }
    this.session!.say(text, { audio: ahead.audio });
  }

  /** The call is being recorded; its address goes with the end. */
  recording(url: string): void {
    this.recordingUrl = url;
  }

  /** Reports the end once, then closes the line and the session. Later calls wait for the first. */
  end(end: CallEnd): Promise<void> {
    this.ending ??= (async () => {
      this.watch.stop();
      this.greetingAhead?.cancel();
      for (const t of this.timers) clearTimeout(t);
      this.timers = [];
      await this.reporter.ended({ ...end, recordingUrl: end.recordingUrl ?? this.recordingUrl });
      this.endedSignal.resolve(end);
      await this.deps.line.hangUp().catch((e) => this.deps.log.warn({ err: e }, 'hanging up failed'));
      const session = this.session;
      if (session) void session.close().catch(() => undefined);
    })();
    return this.ending;
  }

  /** Voicemail: leave the assistant's message (if any), then end; without `end_call_on_voicemail` the call goes on. */
  async reachedVoicemail(): Promise<void> {
    if (!this.plan.voicemail.endCall) return;
    await this.speak(this.texts.voiceMailMessage);
    await this.end({ status: 'completed', reason: 'voicemail' });
  }

  /**
   * One spoken apology, then the call ends `provider_error`; never a silent open line. The apology
   * needs a voice that still works: not after the synthesizer failed, and after a realtime model failed
   * only when a synthesizer speaks for it (`dualplex`); otherwise the call ends without it.
   */
  async providerFailed(error: { readonly type?: string; readonly error?: unknown }): Promise<void> {
    if (this.failing || this.ending) return;
    this.failing = true;
    this.deps.log.error({ err: error.error ?? error, failed: error.type }, 'a speech provider failed; ending the call');
    const apology = APOLOGIES[(this.deps.config.assistant.language ?? 'en').slice(0, 2)] ?? APOLOGIES.en;
    if (error.type === 'realtime_model_error') {
      if (this.plan.engine === 'dualplex') await this.speak(apology);
    } else if (error.type !== 'tts_error') {
      await this.speak(apology);
    }
    await this.end({ status: 'failed', reason: 'provider_error' });
  }

  private checkSilence(): void {
    const action = this.silence?.tick(Date.now()) ?? 'none';
    if (action === 'end') void this.end({ status: 'completed', reason: 'silence_timeout' });
    else if (action === 'reengage' && this.session) {
      const prompt =
        this.texts.reengagementPrompt ??
        'The customer has been silent for a while. Briefly ask whether they are still there.';
      // The session may be closing on its own (its close event ends the call just after).
      try {
        this.session.generateReply({ instructions: prompt });
      } catch (e) {
        this.deps.log.warn({ err: e }, 'could not reengage the customer');
      }
    }
  }

  /**
   * Says a fixed text. A realtime model speaks with its own voice and has no synthesizer to read a
   * text aloud, so it is asked to say the words exactly.
   */
  private say(text: string, options: { allowInterruptions?: boolean } = {}): voice.SpeechHandle {
    const session = this.session!;
    if (this.plan.engine === 'realtime') {
      return session.generateReply({
        instructions: `Say exactly this, and nothing else: ${JSON.stringify(text)}`,
        allowInterruptions: options.allowInterruptions,
      });
    }
    return session.say(text, options);
  }

  /** Says a text and waits (bounded) until it was said; nothing when there is no text or no session. */
  private async speak(text: string | null): Promise<void> {
    if (!text || !this.session) return;
    try {
      const handle = this.say(text, { allowInterruptions: false });
      await withTimeout(handle.waitForPlayout(), SPEECH_WAIT_MS);
    } catch (e) {
      this.deps.log.warn({ err: e }, 'could not say the text');
    }
  }

  private async runTool(
    config: RuntimeConfig,
    name: string,
    args: Record<string, unknown>,
    options: llm.ToolOptions<unknown>,
  ): Promise<unknown> {
    this.watch.toolStarted();
    try {
      return await this.runResolvedTool(config, name, args, options);
    } finally {
      this.watch.toolFinished();
    }
  }

  private async runResolvedTool(
    config: RuntimeConfig,
    name: string,
    args: Record<string, unknown>,
    options: llm.ToolOptions<unknown>,
  ): Promise<unknown> {
    const call = resolveToolCall(config, name);
    if (call === null) return { error: 'unknown_function' };
    if (call.kind === 'tool') {
      const filler = this.plan.fillers;
      if (filler && this.session)
        this.session.say(filler[Math.floor(Math.random() * filler.length)], { addToChatCtx: false });
      const result = await this.deps.controlPlane.callTool({
        call_id: this.deps.callId,
        tool_id: call.tool.id,
        params: args,
        invocation_id: `${this.deps.callId}:${options.toolCallId}`,
      });
      return asToolOutput(result.content);
    }
    return this.runBuiltIn(config, call.builtin, args, options);
  }

  /** Built-ins as the phone line carries them out; what the model reads back is the policy's (shared with text calls). */
  private async runBuiltIn(
    config: RuntimeConfig,
    tool: BuiltInTool,
    args: Record<string, unknown>,
    options: llm.ToolOptions<unknown>,
  ): Promise<unknown> {
    switch (tool.type) {
      case 'end_call':
        await withTimeout(options.ctx.waitForPlayout(), SPEECH_WAIT_MS);
        void this.end({ status: 'completed', reason: 'assistant_ended' });
        throw new voice.StopResponse();
      case 'call_transfer': {
        const warm = tool.data.warm_transfer;
        const brief = warm
          ? () => this.speak(tool.data.warm_transfer_message ?? 'I am transferring a customer to you now.')
          : null;
        try {
          await this.deps.line.transfer(tool.data.phone_number, brief);
        } catch (e) {
          this.deps.log.warn({ err: e }, 'transfer failed');
          return {
            error: 'transfer_failed',
            message: 'The transfer did not go through; tell the customer and continue.',
          };
        }
        void this.end({ status: 'completed', reason: 'transferred' });
        throw new voice.StopResponse();
      }
      case 'dtmf_input': {
        const digits = dtmfDigits(args);
        if (digits === null) return BUILT_IN_REFUSALS.invalidDigits;
        await this.deps.line.sendDtmf(digits);
        return { pressed: digits };
      }
      case 'collect_keypad':
        return keypadResult(await this.deps.line.collectDigits(tool.data.stop_key, tool.data.timeout));
      case 'calendar_integration':
        return BUILT_IN_REFUSALS.noScheduling;
      case 'assistant_transfer':
        return this.transferToAssistant(config, tool);
      case 'do_not_call':
        return (await this.deps.controlPlane.optOut(this.deps.callId))
          ? DO_NOT_CALL_DONE
          : BUILT_IN_REFUSALS.doNotCallFailed;
    }
  }

  /**
   * The other assistant takes over the same session: the leaving one says its message, the new
   * agent (instructions, tools, voice) starts from the conversation's spoken lines so far, and
   * greets when the tool says so.
   */
  private async transferToAssistant(
    config: RuntimeConfig,
    tool: Extract<BuiltInTool, { type: 'assistant_transfer' }>,
  ): Promise<unknown> {
    const next = handOver(config, tool, this.deps.clock.now());
    if (next === null || !this.session) return BUILT_IN_REFUSALS.noSuchColleague;
    await this.speak(next.before);
    const chatCtx = this.session.history.copy({
      excludeFunctionCall: true,
      excludeInstructions: true,
      excludeEmptyMessage: true,
      excludeHandoff: true,
      excludeConfigUpdate: true,
    });
    this.session.updateAgent(
      this.agentFor(next.config, { ...(await this.speechOf(next.config)), chatCtx }, next.greeting),
    );
    throw new voice.StopResponse();
  }
}
