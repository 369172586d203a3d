import {
  ApplyTemplate, assistantEventRuns, AutomationEngine, automationResumeJobs, AutomationSteps, AutomationToolRuns, CheckConnection, SecretCipher, TOKENS,
  type AutomationChatapp, type Token,
} from '@voiceplane/application';
import {
  ConnectionController, connectionRouteDocs, DataTableController, SandboxAutomationController, sandboxAutomationRouteDocs, dataTableRouteDocs, FlowRunController, flowRunRouteDocs, TemplateController,
  templateRouteDocs,
} from '@voiceplane/adapter-http';
import {
  TypeormAutomationRepository, TypeormAutomationRunRepository, TypeormAutomationToolBinding, TypeormConnectionRepository, TypeormDataTableRepository,
} from '@voiceplane/adapter-typeorm';
import { checkTargetUrl } from '@voiceplane/domain';
import { ApiModule } from './module';

/**
 * Automations (CONTRACT §10.1–§10.4, §10.10, §10.12, §10.13, §10.15, §10.16): data tables,
 * connections, the template catalogue and apply with its real test, run details, paused runs
 * resumed by the job scheduler, runs on `call.ended`, and the `type: automation` mid-call tool.
 *
 * The chat-app capability binds TOKENS.AutomationChatapp (its template send and sender/template
 * lists). Were it absent, chat-app templates would refuse `invalid_param_choice` on `sender_id`
 * with no choices, and a `chatapp.send_template` step would fail with `step_error`.
 */
export const automationsModule: ApiModule = ({ container: c, config, database, logger }) => {
  const log = logger.child({ module: 'automations' });
  const get = <T>(token: Token<T>): T => c.get(token);
  // Looked up when first resolved, after every module has composed.
  const chatapp = (): AutomationChatapp | null => (c.isBound(TOKENS.AutomationChatapp) ? c.get(TOKENS.AutomationChatapp) : null);

  c.bind(TOKENS.DataTableRepository).toConstantValue(new TypeormDataTableRepository(database));
  c.bind(TOKENS.ConnectionRepository).toConstantValue(new TypeormConnectionRepository(database));
  c.bind(TOKENS.AutomationRepository).toConstantValue(new TypeormAutomationRepository(database));
  c.bind(TOKENS.AutomationRunRepository).toConstantValue(new TypeormAutomationRunRepository(database));
  c.bind(TOKENS.AutomationToolBinding).toConstantValue(new TypeormAutomationToolBinding(database));

  c.bind(CheckConnection).toDynamicValue(() => new CheckConnection(
    get(TOKENS.ConnectionRepository), get(TOKENS.OutboundHttpClient), get(TOKENS.ToolGateway), c.get(SecretCipher), get(TOKENS.Clock), get(TOKENS.Ids),
  )).inSingletonScope();
  c.bind(TOKENS.AutomationEngine).toDynamicValue(() => new AutomationEngine(
    get(TOKENS.AutomationRepository), get(TOKENS.AutomationRunRepository),
    new AutomationSteps(
      get(TOKENS.OutboundHttpClient), get(TOKENS.ToolGateway), get(TOKENS.DataTableRepository), get(TOKENS.ConnectionRepository), c.get(SecretCipher),
      get(TOKENS.MakeCall), chatapp(), get(TOKENS.Ids), get(TOKENS.Clock),
    ),
    get(TOKENS.JobScheduler), get(TOKENS.UnitOfWork), get(TOKENS.Clock), get(TOKENS.Ids),
  )).inSingletonScope();
  c.bind(TOKENS.ApplyTemplate).toDynamicValue(() => {
    const policy = get(TOKENS.TargetUrlPolicy);
    return new ApplyTemplate(
      get(TOKENS.AutomationRepository), get(TOKENS.AssistantRepository), get(TOKENS.DataTableRepository), get(TOKENS.ConnectionRepository),
      get(TOKENS.AutomationToolBinding), chatapp(), get(TOKENS.AutomationEngine), get(TOKENS.Clock), get(TOKENS.Ids),
      {
        publicBaseUrl: config.publicBaseUrl,
        checkUrl: (url) => (checkTargetUrl(url, policy).ok ? null : 'The target url must be a public http or https URL.'),
      },
    );
  }).inSingletonScope();
  c.bind(TOKENS.AutomationToolRunner).toDynamicValue(() => new AutomationToolRuns(
    get(TOKENS.AutomationRepository), get(TOKENS.AutomationEngine), get(TOKENS.Clock),
  )).inSingletonScope();
  c.bind(TOKENS.JobHandler).toDynamicValue(() => automationResumeJobs(get(TOKENS.AutomationEngine), log)).inSingletonScope();
  c.bind(TOKENS.EventConsumer).toDynamicValue(() => assistantEventRuns(get(TOKENS.AutomationRepository), get(TOKENS.AutomationEngine))).inSingletonScope();

  // S11/S12 drive voiceplane's own scheduler and connections: present whenever any provider is the sandbox (D3).
  const sandbox = [config.voiceRuntime, config.sipProvisioner, config.numberInventory, config.chatappProvider].includes('sandbox');
  const controllers = [DataTableController, ConnectionController, TemplateController, FlowRunController, ...(sandbox ? [SandboxAutomationController] : [])];
  for (const controller of controllers) c.bind(controller).toSelf().inSingletonScope();
  return { routeDocs: [...dataTableRouteDocs, ...connectionRouteDocs, ...templateRouteDocs, ...flowRunRouteDocs, ...(sandbox ? sandboxAutomationRouteDocs : [])] };
};
