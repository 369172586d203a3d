import type { Result } from '../../common/result';
import type { ExpressionContext, WiringError } from '../expressions';
import type { JsonObject, JsonValue } from '../json';
import type { FailureClassification, StepFailureReason, StepResult } from '../step-outcome';

/** Reports one configuration key as missing or holding the wrong thing. */
export type BadKey = (key: string) => void;

/**
 * What the domain knows about one step kind `C` configures: which configuration it accepts and
 * how that configuration is resolved against the run. Executing a step that acts on the world is
 * the application's handler for the kind; a pure kind executes here (`PureStepKindRules`).
 */
export interface StepKindRules<C> {
  /** Checks a stored or built configuration, reporting every bad key in order. */
  readonly checkConfig: (config: JsonObject, bad: BadKey) => void;
  /** The configuration with every expression resolved; absent: every expression is evaluated where it stands. */
  readonly resolveConfig?: (config: C, context: ExpressionContext) => Result<JsonObject, WiringError>;
  /** The classification of a failure reason particular to this kind; null or absent: the general rule. */
  readonly classifyFailure?: (reason: StepFailureReason) => FailureClassification | null;
}

/** A kind that needs nothing outside the run executes in the domain. */
export interface PureStepKindRules<C> extends StepKindRules<C> {
  readonly execute: (config: C, context: ExpressionContext) => StepResult;
}

export const wiringFailure = (e: WiringError): StepResult => ({
  kind: 'failed',
  reason: 'missing_path',
  detail: e.path,
});

const LONE = /^\{\{[^{}]*\}\}$/;
export const isLoneExpression = (v: JsonValue | undefined): boolean => typeof v === 'string' && LONE.test(v.trim());

export function requireLoneExpression(c: JsonObject, key: string, bad: BadKey): void {
  if (!isLoneExpression(c[key])) bad(key);
}
export function requireText(c: JsonObject, key: string, bad: BadKey): void {
  if (typeof c[key] !== 'string' || (c[key] as string).trim() === '') bad(key);
}
export function requireId(c: JsonObject, key: string, bad: BadKey): void {
  const v = c[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) bad(key);
}
export function oneOf<T extends string>(values: readonly T[], v: JsonValue | undefined): v is T {
  return typeof v === 'string' && (values as readonly string[]).includes(v);
}
