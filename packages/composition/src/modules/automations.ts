import {
  ApplyTemplate,
  assistantEventRuns,
  conversationEventRuns,
  automationContinueJobs,
  AutomationEngine,
  automationResumeJobs,
  AutomationRunSweeper,
  RUN_SWEEP_INTERVAL_MS,
  AutomationSteps,
  AutomationToolRuns,
  CheckConnection,
  AutomationQueries,
  ManageConnections,
  ManageDataTables,
  ManageAutomations,
  RestoreAutomation,
  RetryRun,
  RunQueries,
  SandboxAutomationControls,
  SecretCipher,
  SYNC_REPLY_WAIT_MS,
  TemplateChecks,
  TOKENS,
  TriggerWebhook,
  UpdateAutomation,
  VersionPublisher,
  type AutomationChatapp,
  type Token,
} from '@voiceplane/application';
import {
  AutomationHookController,
  ConnectionController,
  DataTableController,
  AutomationController,
  SandboxAutomationController,
  AutomationRunController,
  SandboxFaults,
  TemplateController,
} from '@voiceplane/adapter-http';
import { ArmedRollbackFaults } from '@voiceplane/adapter-sandbox';
import {
  TypeormAutomationRepository,
  TypeormAutomationRunRepository,
  TypeormAutomationToolBinding,
  TypeormConnectionRepository,
  TypeormDataTableRepository,
} from '@voiceplane/adapter-typeorm';
import { checkTargetUrl } from '@voiceplane/domain';
import { everyInterval, safetyPollMs } from './every-interval';
import { ApiModule } from './module';

/**
 * Automations: data tables, connections, the template catalogue and apply with its
 * real test, automations with their versions (update, enable/disable/delete, restore), run details and
 * retries, paused runs resumed by the job scheduler, runs on `call.ended`, the webhook trigger
 * route, and the `type: automation` mid-call tool.
 *
 * The chat-app capability binds TOKENS.AutomationChatapp (its template send and sender/template
 * lists). Were it absent, chat-app templates would refuse `invalid_param_choice` on `sender_id`
 * with no choices, and a `chatapp.send_template` step would fail with `step_error`.
 */
export const automationsModule: ApiModule = ({ container: c, config, database, logger }) => {
  const log = logger.child({ module: 'automations' });
  const get = <T>(token: Token<T>): T => c.get(token);
  // Looked up when first resolved, after every module has composed.
  const chatapp = (): AutomationChatapp | null =>
    c.isBound(TOKENS.AutomationChatapp) ? c.get(TOKENS.AutomationChatapp) : null;

  c.bind(TOKENS.DataTableRepository).toConstantValue(new TypeormDataTableRepository(database));
  c.bind(TOKENS.ConnectionRepository).toConstantValue(new TypeormConnectionRepository(database));
  c.bind(TOKENS.ManageConnections)
    .toDynamicValue(
      () => new ManageConnections(get(TOKENS.ConnectionRepository), c.get(SecretCipher), get(TOKENS.UnitOfWork)),
    )
    .inSingletonScope();
  c.bind(TOKENS.ManageDataTables)
    .toDynamicValue(() => new ManageDataTables(get(TOKENS.DataTableRepository), get(TOKENS.UnitOfWork)))
    .inSingletonScope();
  const automations = new TypeormAutomationRepository(database, c.get(SecretCipher));
  c.bind(TOKENS.AutomationRepository).toConstantValue(automations);
  c.bind(TOKENS.AutomationRunRepository).toConstantValue(new TypeormAutomationRunRepository(database));
  c.bind(TOKENS.AutomationToolBinding).toConstantValue(new TypeormAutomationToolBinding(database));

  c.bind(CheckConnection)
    .toDynamicValue(
      () =>
        new CheckConnection(
          get(TOKENS.ConnectionRepository),
          get(TOKENS.OutboundHttpClient),
          get(TOKENS.ToolGateway),
          c.get(SecretCipher),
          get(TOKENS.Clock),
          get(TOKENS.Ids),
          get(TOKENS.UnitOfWork),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.AutomationEngine)
    .toDynamicValue(
      () =>
        new AutomationEngine(
          {
            automations: get(TOKENS.AutomationRepository),
            runs: get(TOKENS.AutomationRunRepository),
            uow: get(TOKENS.UnitOfWork),
          },
          {
            steps: new AutomationSteps({
              http: get(TOKENS.OutboundHttpClient),
              gateway: get(TOKENS.ToolGateway),
              tables: get(TOKENS.DataTableRepository),
              connections: get(TOKENS.ConnectionRepository),
              cipher: c.get(SecretCipher),
              makeCall: get(TOKENS.MakeCall),
              chatapp: chatapp(),
              clock: get(TOKENS.Clock),
            }),
            scheduler: get(TOKENS.JobScheduler),
          },
          get(TOKENS.Clock),
          get(TOKENS.Ids),
          log,
        ),
    )
    .inSingletonScope();
  c.bind(TemplateChecks)
    .toDynamicValue(() => {
      const policy = get(TOKENS.TargetUrlPolicy);
      return new TemplateChecks(
        get(TOKENS.DataTableRepository),
        get(TOKENS.ConnectionRepository),
        get(TOKENS.AutomationToolBinding),
        chatapp(),
        {
          checkUrl: (url) =>
            checkTargetUrl(url, policy).ok ? null : 'The target url must be a public http or https URL.',
        },
      );
    })
    .inSingletonScope();
  c.bind(VersionPublisher)
    .toDynamicValue(
      () =>
        new VersionPublisher(
          get(TOKENS.AutomationRepository),
          get(TOKENS.AutomationToolBinding),
          get(TOKENS.DataTableRepository),
          get(TOKENS.UnitOfWork),
          config.publicBaseUrl,
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.ApplyTemplate)
    .toDynamicValue(
      () =>
        new ApplyTemplate(
          {
            uow: get(TOKENS.UnitOfWork),
            automations: get(TOKENS.AutomationRepository),
            assistants: get(TOKENS.AssistantRepository),
            tools: get(TOKENS.AutomationToolBinding),
          },
          { checks: c.get(TemplateChecks), publisher: c.get(VersionPublisher), engine: get(TOKENS.AutomationEngine) },
          get(TOKENS.Clock),
          get(TOKENS.Ids),
          config.publicBaseUrl,
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.UpdateAutomation)
    .toDynamicValue(
      () =>
        new UpdateAutomation(
          get(TOKENS.AutomationRepository),
          { checks: c.get(TemplateChecks), publisher: c.get(VersionPublisher), engine: get(TOKENS.AutomationEngine) },
          get(TOKENS.Clock),
          get(TOKENS.Ids),
          config.publicBaseUrl,
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.AutomationQueries)
    .toDynamicValue(() => new AutomationQueries(get(TOKENS.AutomationRepository), config.publicBaseUrl))
    .inSingletonScope();
  c.bind(TOKENS.ManageAutomations)
    .toDynamicValue(
      () =>
        new ManageAutomations(
          get(TOKENS.AutomationRepository),
          get(TOKENS.AssistantRepository),
          get(TOKENS.AutomationToolBinding),
          get(TOKENS.UnitOfWork),
          get(TOKENS.Clock),
          get(TOKENS.AutomationQueries),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.RunQueries)
    .toDynamicValue(() => new RunQueries(get(TOKENS.AutomationRepository), get(TOKENS.AutomationRunRepository)))
    .inSingletonScope();
  c.bind(TOKENS.RetryRun)
    .toDynamicValue(
      () =>
        new RetryRun(
          get(TOKENS.AutomationRepository),
          get(TOKENS.AutomationRunRepository),
          get(TOKENS.AutomationEngine),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.TriggerWebhook)
    .toDynamicValue(
      () =>
        new TriggerWebhook(
          get(TOKENS.AutomationRepository),
          get(TOKENS.AutomationEngine),
          get(TOKENS.RateLimiter),
          get(TOKENS.Ids),
          log,
          { ratePerMinute: config.automationHookRatePerMinute, replyWaitMs: SYNC_REPLY_WAIT_MS },
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.AutomationToolRunner)
    .toDynamicValue(
      () => new AutomationToolRuns(get(TOKENS.AutomationRepository), get(TOKENS.AutomationEngine), get(TOKENS.Clock)),
    )
    .inSingletonScope();
  c.bind(TOKENS.JobHandler)
    .toDynamicValue(() => automationResumeJobs(get(TOKENS.AutomationEngine), log))
    .inSingletonScope();
  c.bind(TOKENS.JobHandler)
    .toDynamicValue(() => automationContinueJobs(get(TOKENS.AutomationEngine), log))
    .inSingletonScope();
  c.bind(TOKENS.EventConsumer)
    .toDynamicValue(() => conversationEventRuns(get(TOKENS.AutomationRepository), get(TOKENS.AutomationEngine)))
    .inSingletonScope();
  c.bind(TOKENS.EventConsumer)
    .toDynamicValue(() =>
      assistantEventRuns(
        get(TOKENS.AutomationRepository),
        get(TOKENS.AutomationRunRepository),
        get(TOKENS.AutomationEngine),
      ),
    )
    .inSingletonScope();

  // The sandbox resume-now, connection status and the `automation_rollback` fault drive voiceplane's own scheduler, connections and
  // restores: present whenever any provider is the sandbox.
  const sandbox = [config.voiceRuntime, config.sipProvisioner, config.numberInventory, config.chatappProvider].includes(
    'sandbox',
  );
  const rollbackFaults = sandbox ? new ArmedRollbackFaults() : null;
  c.bind(TOKENS.RestoreAutomation)
    .toDynamicValue(
      () =>
        new RestoreAutomation(
          get(TOKENS.AutomationRepository),
          get(TOKENS.AssistantRepository),
          { checks: c.get(TemplateChecks), publisher: c.get(VersionPublisher), faults: rollbackFaults },
          get(TOKENS.Clock),
          get(TOKENS.Ids),
          get(TOKENS.UnitOfWork),
        ),
    )
    .inSingletonScope();
  SandboxFaults.in(c).register(
    'automation_rollback',
    rollbackFaults &&
      (async ({ userId, targetId, targetRef, count }) => {
        if (targetId !== null) return 'not_found';
        if (targetRef !== null && (await get(TOKENS.AutomationRepository).find(userId, targetRef)) === null)
          return 'not_found';
        return { remaining: rollbackFaults.arm(userId, targetRef, count) };
      }),
    { textTargets: true },
  );

  if (sandbox) {
    c.bind(TOKENS.SandboxAutomationControls)
      .toDynamicValue(
        () =>
          new SandboxAutomationControls(
            get(TOKENS.AutomationRunRepository),
            get(TOKENS.AutomationEngine),
            get(TOKENS.ConnectionRepository),
            get(TOKENS.Clock),
          ),
      )
      .inSingletonScope();
  }
  const controllers = [
    DataTableController,
    ConnectionController,
    TemplateController,
    AutomationController,
    AutomationRunController,
    AutomationHookController,
    ...(sandbox ? [SandboxAutomationController] : []),
  ];
  for (const controller of controllers) c.bind(controller).toSelf().inSingletonScope();
  return {
    background: [
      // A sync hook or tool run whose caller stopped waiting is still being written: shutdown waits for it.
      {
        name: 'automation-answered-runs',
        start: async () => undefined,
        stop: () => get(TOKENS.AutomationEngine).settled(),
      },
      everyInterval(
        'automation-run-sweeper',
        safetyPollMs(config, RUN_SWEEP_INTERVAL_MS),
        () =>
          new AutomationRunSweeper(
            get(TOKENS.AutomationRunRepository),
            get(TOKENS.AutomationEngine),
            get(TOKENS.Clock),
            log,
          ).sweep(),
        log,
      ),
    ],
    // Hook tokens stored in clear before they were sealed are sealed once the key is known; until then they read as they are.
    serving: [
      {
        name: 'seal-clear-hook-tokens',
        start: async () => {
          const sealed = await automations.sealClearTokens();
          if (sealed > 0) log.info({ sealed }, 'sealed automation webhook tokens stored in clear');
        },
        stop: async () => undefined,
      },
    ],
  };
};
