import type { ConditionConfig } from './kinds/condition';
import type { DelayConfig } from './kinds/delay';
import type { HttpRequestConfig } from './kinds/http-request';
import type { MakeCallConfig } from './kinds/make-call';
import type { PushNoteConfig } from './kinds/push-note';
import type { RespondConfig } from './kinds/respond';
import type { SendTemplateConfig } from './kinds/send-template';
import type { TableLookupConfig } from './kinds/table-lookup';
import type { ValidatePhoneConfig } from './kinds/validate-phone';

/** Step kinds (the two trigger kinds open a definition, the others are its steps). */
export const TRIGGER_KINDS = ['trigger.webhook', 'trigger.assistant_event'] as const;

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

/** `max_attempts` of `delayed_followup_call`: call-backs for one original call. */
export const MAX_CHAIN_ATTEMPTS = 5;

/**
 * Step configuration as stored in a version's definition and shown by the versions route, each
 * owned by its kind (`kinds/`): the keys are the wire's (snake_case), because the definition is a
 * document users read and expressions name step outputs by their wire keys. Strings may hold
 * `{{path}}` expressions.
 */
export interface StepConfigs {
  readonly 'validate.phone': ValidatePhoneConfig;
  readonly condition: ConditionConfig;
  readonly 'http.request': HttpRequestConfig;
  readonly 'chatapp.send_template': SendTemplateConfig;
  readonly 'voice.make_call': MakeCallConfig;
  readonly delay: DelayConfig;
  readonly 'table.lookup': TableLookupConfig;
  readonly respond: RespondConfig;
  readonly 'crm.push_note': PushNoteConfig;
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
