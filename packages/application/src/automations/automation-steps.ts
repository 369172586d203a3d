import { AutomationStep, ExpressionContext, StepKind, StepOf, StepResult } from '@voiceplane/domain';
import { MakeCall } from '../calls';
import { Clock } from '../ports';
import { OutboundHttpClient } from '../ports';
import { SecretCipher } from '../common';
import { ToolGateway } from '../tools';
import { AutomationChatapp, ConnectionRepository, DataTableRepository } from './ports';
import { httpRequestStep, pushNoteStep } from './steps/http-steps';
import { pureStepHandlers } from './steps/pure-steps';
import { makeCallStep, sendTemplateStep, tableLookupStep } from './steps/record-steps';
import { StepActor, StepHandler, StepHandlers } from './steps/step-handler';

export { AUTOMATION_EVENT_TYPE, STEP_HTTP_TIMEOUT_MS } from './steps/http-steps';
export { StepActor, StepHandler, StepHandlers, stepWebhookId } from './steps/step-handler';

/** What the steps act through. */
export interface StepDependencies {
  readonly http: OutboundHttpClient;
  readonly gateway: ToolGateway;
  readonly tables: DataTableRepository;
  readonly connections: ConnectionRepository;
  readonly cipher: SecretCipher;
  readonly makeCall: MakeCall;
  /** Null until the chat-app capability is composed: chat-app steps then fail as `step_error`. */
  readonly chatapp: AutomationChatapp | null;
  readonly clock: Clock;
}

const handlerOf = <K extends StepKind>(handlers: StepHandlers, step: StepOf<K>): StepHandler<K> => handlers[step.kind];

/**
 * Executes any step by its kind's handler (`StepHandlers` holds one per kind, so adding a step
 * kind is adding its handler).
 */
export class AutomationSteps {
  private readonly handlers: StepHandlers;

  constructor(deps: StepDependencies) {
    const { http, gateway, tables, connections, cipher, makeCall, chatapp, clock } = deps;
    this.handlers = {
      ...pureStepHandlers(),
      'http.request': httpRequestStep({ http, gateway, clock }),
      'crm.push_note': pushNoteStep({ http, gateway, clock, connections, cipher }),
      'table.lookup': tableLookupStep(tables),
      'voice.make_call': makeCallStep(makeCall),
      'chatapp.send_template': sendTemplateStep(chatapp),
    };
  }

  execute(step: AutomationStep, context: ExpressionContext, actor: StepActor): Promise<StepResult> {
    return handlerOf(this.handlers, step as StepOf<StepKind>).execute(step as StepOf<StepKind>, context, actor);
  }
}
