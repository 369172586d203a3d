import { err, ok, Result } from '../common/result';
import { expressionsIn, parseExpressionPath } from './expressions';
import { isJsonObject, JsonObject, JsonValue } from './json';
import { STEP_KIND_RULES } from './kinds';
import { oneOf } from './kinds/step-kind';
import {
  TRIGGER_EVENTS,
  AutomationDefinition,
  MAX_CHAIN_ATTEMPTS,
  AutomationStep,
  STEP_KINDS,
  StepKind,
  AutomationTrigger,
  TRIGGER_KINDS,
  triggerStepName,
  WEBHOOK_MODES,
} from './step-kinds';

/** Step names: what run details list and `steps.<name>.output` expressions name. */
export const STEP_NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
export const MAX_STEPS = 50;

export type DefinitionProblemCode =
  /** A value has the wrong JSON type or is absent where required. */
  | 'invalid_value'
  | 'unknown_trigger_kind'
  | 'unknown_step_kind'
  | 'no_steps'
  | 'too_many_steps'
  | 'invalid_step_name'
  /** Two steps (or a step and the trigger) share a name. */
  | 'duplicate_step_name'
  /** One optional condition step. */
  | 'too_many_conditions'
  | 'too_many_responds'
  /** A `respond` step replies to a sync webhook; other triggers have no one to reply to. */
  | 'respond_without_sync_webhook'
  /** A sync webhook answers with the `respond` body, so it needs one. */
  | 'sync_webhook_without_respond'
  | 'invalid_expression'
  /** `steps.<name>.output` of a step that does not run before this one. */
  | 'unknown_step_reference';

/** `at`: where in the definition document, as a dotted path (`steps.1.config.url`). */
export interface DefinitionProblem {
  readonly code: DefinitionProblemCode;
  readonly at: string;
}

/**
 * Reads a stored or built definition document and checks its structure (the "engine's
 * schema" a restore relies on). Every problem is reported, in document order.
 */
export function parseDefinition(raw: unknown): Result<AutomationDefinition, DefinitionProblem[]> {
  const problems: DefinitionProblem[] = [];
  const report = (code: DefinitionProblemCode, at: string) => problems.push({ code, at });
  if (!isJsonObject(raw as JsonValue)) return err([{ code: 'invalid_value', at: '' }]);
  const doc = raw as JsonObject;

  const trigger = readTrigger(doc.trigger, report);
  if (!Array.isArray(doc.steps)) {
    report('invalid_value', 'steps');
    return err(problems);
  }
  const rawSteps = doc.steps as readonly JsonValue[];
  if (rawSteps.length === 0) report('no_steps', 'steps');
  if (rawSteps.length > MAX_STEPS) report('too_many_steps', 'steps');

  const steps: AutomationStep[] = [];
  // The trigger is listed as a run's first step, so its name is taken too; its output is `trigger`.
  const taken = new Set<string>(trigger ? [triggerStepName(trigger)] : []);
  const earlier = new Set<string>();
  rawSteps.forEach((rawStep, i) => {
    const at = `steps.${i}`;
    const step = readStep(rawStep, at, report);
    if (!step) return;
    if (taken.has(step.name)) report('duplicate_step_name', `${at}.name`);
    checkReferences(step.config as unknown as JsonValue, earlier, `${at}.config`, report);
    taken.add(step.name);
    earlier.add(step.name);
    steps.push(step);
  });

  const count = (kind: StepKind) => steps.filter((s) => s.kind === kind).length;
  if (count('condition') > 1) report('too_many_conditions', 'steps');
  if (count('respond') > 1) report('too_many_responds', 'steps');
  const syncWebhook = trigger?.kind === 'trigger.webhook' && trigger.mode === 'sync';
  if (trigger && count('respond') > 0 && !syncWebhook) report('respond_without_sync_webhook', 'steps');
  if (syncWebhook && count('respond') === 0) report('sync_webhook_without_respond', 'steps');

  return problems.length === 0 && trigger ? ok({ trigger, steps }) : err(problems);
}

type Report = (code: DefinitionProblemCode, at: string) => void;

function readTrigger(raw: JsonValue | undefined, report: Report): AutomationTrigger | null {
  if (!isJsonObject(raw)) {
    report('invalid_value', 'trigger');
    return null;
  }
  if (!oneOf(TRIGGER_KINDS, raw.kind)) {
    report('unknown_trigger_kind', 'trigger.kind');
    return null;
  }
  if (raw.kind === 'trigger.webhook') {
    if (oneOf(WEBHOOK_MODES, raw.mode)) return { kind: raw.kind, mode: raw.mode };
    report('invalid_value', 'trigger.mode');
    return null;
  }
  if (!oneOf(TRIGGER_EVENTS, raw.event)) {
    report('invalid_value', 'trigger.event');
    return null;
  }
  if (raw.max_attempts === undefined) return { kind: raw.kind, event: raw.event };
  const max = raw.max_attempts;
  if (typeof max === 'number' && Number.isInteger(max) && max >= 1 && max <= MAX_CHAIN_ATTEMPTS)
    return { kind: raw.kind, event: raw.event, max_attempts: max };
  report('invalid_value', 'trigger.max_attempts');
  return null;
}

function readStep(raw: JsonValue, at: string, report: Report): AutomationStep | null {
  if (!isJsonObject(raw)) {
    report('invalid_value', at);
    return null;
  }
  const named = typeof raw.name === 'string' && STEP_NAME_PATTERN.test(raw.name);
  if (!named) report('invalid_step_name', `${at}.name`);
  if (!oneOf(STEP_KINDS, raw.kind)) {
    report('unknown_step_kind', `${at}.kind`);
    return null;
  }
  if (!isJsonObject(raw.config)) {
    report('invalid_value', `${at}.config`);
    return null;
  }
  const badKeys: string[] = [];
  STEP_KIND_RULES[raw.kind].checkConfig(raw.config, (key) => badKeys.push(key));
  badKeys.forEach((key) => report('invalid_value', `${at}.config.${key}`));
  return named && badKeys.length === 0
    ? ({ name: raw.name, kind: raw.kind, config: raw.config } as unknown as AutomationStep)
    : null;
}

/** Expressions must parse and may only read the output of steps that run earlier. */
function checkReferences(config: JsonValue, earlier: ReadonlySet<string>, at: string, report: Report): void {
  for (const path of expressionsIn(config)) {
    const parsed = parseExpressionPath(path);
    if (!parsed.ok) report('invalid_expression', at);
    else if (parsed.value.root.kind === 'step' && !earlier.has(parsed.value.root.step))
      report('unknown_step_reference', at);
  }
}
