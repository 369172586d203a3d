import { createHash } from 'node:crypto';
import {
  ExpressionContext,
  JsonObject,
  resolveStepConfig,
  StepKind,
  StepOf,
  StepResult,
  wiringFailure,
} from '@voiceplane/domain';

/** Who a step acts for, and whether the run is a test (test payloads carry `"test": true`). */
export interface StepActor {
  readonly userId: number;
  readonly isTest: boolean;
  readonly runId: string;
  /** The step being executed: with the run, what makes a step idempotent. */
  readonly stepName: string;
}

/**
 * How one step kind executes against the run so far. Nothing here throws for a refusal: every
 * outcome is a `StepResult` the domain applies to the run.
 */
export interface StepHandler<K extends StepKind> {
  execute(step: StepOf<K>, context: ExpressionContext, actor: StepActor): Promise<StepResult>;
}

/** One handler per step kind: a kind added to the domain without its handler does not compile. */
export type StepHandlers = { readonly [K in StepKind]: StepHandler<K> };

/**
 * A handler for a step that acts on the world: it gets its configuration with every expression
 * already resolved (a missing path fails the step as a wiring error before anything is sent).
 */
export function actingStep<K extends StepKind>(
  perform: (config: JsonObject, actor: StepActor) => Promise<StepResult>,
): StepHandler<K> {
  return {
    execute: async (step, context, actor) => {
      const config = resolveStepConfig(step as Parameters<typeof resolveStepConfig>[0], context);
      return config.ok ? perform(config.value, actor) : wiringFailure(config.error);
    },
  };
}

/**
 * The `webhook-id` of a step's requests: the same on every attempt of that step of that run, also
 * after another worker took the run over, so receivers de-duplicate (`msg_` + 22 base62).
 */
export function stepWebhookId(runId: string, stepName: string): string {
  const digest = createHash('sha256').update(`${runId}:${stepName}`).digest();
  let id = '';
  for (let i = 0; id.length < 22; i++) id += BASE62[digest[i] % 62];
  return `msg_${id}`;
}
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
