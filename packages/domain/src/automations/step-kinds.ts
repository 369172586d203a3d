import type { JsonObject, JsonValue } from './json';

/** Step kinds (the two trigger kinds open a definition, the others are its steps). */
export const TRIGGER_KINDS = ['trigger.webhook', 'trigger.assistant_event'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

export const STEP_KINDS = [
  'validate.phone',
  'condition',
  'http.request',
  'chatapp.send_template',
  'voice.make_call',
  'delay',
  'table.lookup',
  'respond',
  'crm.push_note',
] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/** `sync`: the caller gets the `respond` body; `async` answers 202 at once. */
export const WEBHOOK_MODES = ['sync', 'async'] as const;
export type WebhookMode = (typeof WEBHOOK_MODES)[number];
export const ASYNC_WEBHOOK_MODE = WEBHOOK_MODES[1];
export const TRIGGER_EVENTS = ['call.ended', 'conversation.ended'] as const;
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

export type AutomationTrigger =
  | { readonly kind: 'trigger.webhook'; readonly mode: WebhookMode }
  | {
      readonly kind: 'trigger.assistant_event';
      readonly event: TriggerEvent;
      /**
       * How many runs one chain of the automation's own calls may hold (`delayed_followup_call`
       * `max_attempts`); absent: a call placed by the automation never starts it again.
       */
      readonly max_attempts?: number;
    };

export const CONDITION_OPERATORS = ['eq', 'in'] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Delay bounds: the `delay_minutes` range (one week at most). */
export const MIN_DELAY_MINUTES = 1;
export const MAX_DELAY_MINUTES = 10_080;
/** `max_attempts` of `delayed_followup_call`: call-backs for one original call. */
export const MAX_CHAIN_ATTEMPTS = 5;

/**
 * Step configuration as stored in a version's definition and shown by the versions route: the keys are
 * the wire's (snake_case), because the definition is a document users read and expressions name
 * step outputs by their wire keys. Strings may hold `{{path}}` expressions.
 */
export interface StepConfigs {
  /** `field`: a lone expression naming the phone number. */
  readonly 'validate.phone': { readonly field: string };
  /** `value` is a JSON value for `eq`, an array for `in`. */
  readonly condition: { readonly field: string; readonly op: ConditionOperator; readonly value: JsonValue };
  /** `omit_fields`: top-level keys removed from an object body (how `include_transcript: false` is said). */
  readonly 'http.request': { readonly method: HttpMethod; readonly url: string; readonly body?: JsonValue; readonly omit_fields?: readonly string[] };
  readonly 'chatapp.send_template': { readonly sender_id: number; readonly template_id: number; readonly to: string; readonly variables?: JsonObject };
  /**
   * `variables`: an object, or a lone expression resolving to one. `optional_variables`: lone
   * expressions whose missing paths leave the variable out instead of failing the step.
   */
  readonly 'voice.make_call': {
    readonly assistant_id: number;
    readonly to: string;
    readonly variables?: JsonObject | string;
    readonly optional_variables?: { readonly [name: string]: string };
  };
  readonly delay: { readonly minutes: number };
  readonly 'table.lookup': { readonly table_id: number; readonly key_column: string; readonly value: string };
  readonly respond: { readonly body: JsonValue };
  /** `note`: the JSON object posted to the connection's notes path. */
  readonly 'crm.push_note': { readonly connection_id: number; readonly note: JsonObject };
}

export type StepOf<K extends StepKind> = { readonly name: string; readonly kind: K; readonly config: StepConfigs[K] };
export type AutomationStep = { [K in StepKind]: StepOf<K> }[StepKind];

export interface AutomationDefinition {
  readonly trigger: AutomationTrigger;
  readonly steps: readonly AutomationStep[];
}

/** The name under which the trigger is listed as a run's first step. */
export const triggerStepName = (trigger: AutomationTrigger): string =>
  trigger.kind === 'trigger.webhook' ? 'webhook_trigger' : `${trigger.event.replace('.', '_')}_trigger`;
