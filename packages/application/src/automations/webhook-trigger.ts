import { createHash, timingSafeEqual } from 'node:crypto';
import { AutomationRun, JsonObject, JsonValue, SYNC_REPLY_WAIT_MS } from '@voiceplane/domain';
import { WorkLogger } from '../events';
import { Ids } from '../ports';
import { RateDecision, RateLimiter } from '../ratelimit';
import { lastOutput } from './apply-template';
import { AutomationEngine } from './automation-engine';
import { Automation, AutomationRepository } from './ports';

/** A sync webhook reply waits at most 10 s (the domain's limit). */
export { SYNC_REPLY_WAIT_MS };

export interface HookSettings {
  /** Triggers per minute per automation (60). */
  readonly ratePerMinute: number;
  readonly replyWaitMs: number;
}

export type HookAnswer =
  | { readonly kind: 'disabled' }
  | { readonly kind: 'accepted'; readonly runId: string }
  | { readonly kind: 'replied'; readonly body: JsonValue | null }
  | { readonly kind: 'timeout'; readonly runId: string };

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Equal-length digests, so neither the content nor the length of the stored token leaks through timing. */
export const tokensMatch = (given: string, stored: string): boolean => timingSafeEqual(digest(given), digest(stored));

/** `POST /api/hooks/automations/{id}/{token}`: a run with `trigger: "webhook"` and the body as input. */
export class TriggerWebhook {
  constructor(
    private readonly automations: AutomationRepository,
    private readonly engine: AutomationEngine,
    private readonly limiter: RateLimiter,
    private readonly ids: Ids,
    private readonly log: WorkLogger,
    private readonly settings: HookSettings,
  ) {}

  /** The automation the URL names, when its token is right; null answers 404 either way. */
  async authorise(id: string, token: string): Promise<Automation | null> {
    const found = await this.automations.findById(id);
    return found !== null && found.webhookToken !== null && tokensMatch(token, found.webhookToken) ? found : null;
  }

  /** Counts one trigger of the automation against its per-minute limit. */
  admit(automation: Automation): Promise<RateDecision> {
    return this.limiter.consume([
      { key: `hook:${automation.id}`, limit: this.settings.ratePerMinute, windowSeconds: 60 },
    ]);
  }

  async trigger(automation: Automation, input: JsonObject): Promise<HookAnswer> {
    const version =
      automation.status === 'enabled' && automation.liveVersionId !== null
        ? await this.engine.version(automation.liveVersionId)
        : null;
    if (version === null || version.definition.trigger.kind !== 'trigger.webhook') return { kind: 'disabled' };
    const request = { trigger: 'webhook' as const, isTest: false, input };

    if (version.definition.trigger.mode !== 'sync') {
      // Stored and queued for a worker before the 202: the answer never names a run that only lives in memory.
      const accepted = (run: AutomationRun): HookAnswer => ({ kind: 'accepted', runId: run.id });
      return accepted(await this.engine.launch(automation, version, { ...request, concludes: accepted }));
    }
    const runId = this.ids.token('run_', 22);
    // The reply concludes with the run's write: a retry after a crash gets it without running again.
    const replied = (run: AutomationRun): HookAnswer => ({ kind: 'replied', body: lastOutput(run) });
    const running = this.engine.start(automation, version, {
      ...request,
      runId,
      storeAfterAnswer: true,
      concludes: replied,
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.settings.replyWaitMs);
    });
    try {
      const done = await Promise.race([running, late]);
      if (done === 'late') {
        running.catch((e: unknown) => this.log.error({ err: e, runId }, 'webhook-triggered automation run failed'));
        // The 504 names the run: from here it is stored and leased like a run nobody waits for, so a crash cannot lose it.
        await this.engine
          .keepUnanswered(automation.id, runId)
          .catch((e: unknown) => this.log.error({ err: e, runId }, 'storing an unanswered automation run failed'));
        return { kind: 'timeout', runId };
      }
      return done ? replied(done) : { kind: 'replied', body: null };
    } finally {
      clearTimeout(timer);
    }
  }
}
