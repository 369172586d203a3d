import {
  InvokeToolForCall,
  InvokeToolForConversation,
  ManageTools,
  TOKENS,
  ToolGateway,
  ToolPreview,
  type Token,
  type ToolRequestSettings,
} from '@voiceplane/application';
import { ToolController, ToolPreviewController } from '@voiceplane/adapter-http';
import { TypeormToolInvocationLog, TypeormToolRepository } from '@voiceplane/adapter-typeorm';
import { VERSION } from '../version';
import { ApiModule } from './module';

export const TOOL_TESTS_PER_MINUTE = 10;

/**
 * Mid-call tools: CRUD, render/test and the gateway.
 *
 * `POST /api/runtime/tool-calls` (RuntimeToolCallController) needs the call behind a tool
 * invocation, so the module that provides TOKENS.ToolCallContextSource (calls) binds it; without
 * that module the route does not exist and render/test treat every `call_id` as unknown.
 */
export const toolsModule: ApiModule = ({ container: c, config, database, logger }) => {
  c.bind(TOKENS.ToolRepository).toConstantValue(new TypeormToolRepository(database));
  const invocations = new TypeormToolInvocationLog(database, logger.child({ component: 'tool-invocations' }));
  c.bind(TOKENS.ToolInvocationLog).toConstantValue(invocations);

  const settings = (): ToolRequestSettings => ({
    userAgent: `voiceplane/${VERSION}`,
    policy: c.get(TOKENS.TargetUrlPolicy),
  });
  // Optional collaborators are looked up when first resolved, after every module has composed.
  const optional = <T>(token: Token<T>): T | null => (c.isBound(token) ? c.get(token) : null);

  c.bind(TOKENS.ToolGateway)
    .toDynamicValue(
      () =>
        new ToolGateway(c.get(TOKENS.OutboundHttpClient), c.get(TOKENS.SigningSecretRepository), c.get(TOKENS.Clock)),
    )
    .inSingletonScope();
  c.bind(TOKENS.ManageTools)
    .toDynamicValue(() => new ManageTools(c.get(TOKENS.ToolRepository), c.get(TOKENS.UnitOfWork)))
    .inSingletonScope();
  c.bind(TOKENS.ToolPreview)
    .toDynamicValue(
      () =>
        new ToolPreview(
          c.get(TOKENS.ToolRepository),
          optional(TOKENS.ToolCallContextSource),
          c.get(TOKENS.ToolGateway),
          c.get(TOKENS.Clock),
          c.get(TOKENS.Ids),
          settings(),
          c.get(TOKENS.UnitOfWork),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.InvokeToolForCall)
    .toDynamicValue(
      () =>
        new InvokeToolForCall(
          c.get(TOKENS.ToolCallContextSource),
          c.get(TOKENS.ToolRepository),
          c.get(TOKENS.ToolInvocationLog),
          {
            gateway: c.get(TOKENS.ToolGateway),
            automations: optional(TOKENS.AutomationToolRunner),
            clock: c.get(TOKENS.Clock),
            settings: settings(),
          },
          c.get(TOKENS.Ids),
        ),
    )
    .inSingletonScope();

  c.bind(TOKENS.InvokeToolForConversation)
    .toDynamicValue(
      () =>
        new InvokeToolForConversation(
          c.get(TOKENS.ToolRepository),
          {
            gateway: c.get(TOKENS.ToolGateway),
            automations: optional(TOKENS.AutomationToolRunner),
            clock: c.get(TOKENS.Clock),
            settings: settings(),
          },
          c.get(TOKENS.Ids),
          { log: logger.child({ component: 'chat-tool-calls' }), invocations: c.get(TOKENS.ToolInvocationLog) },
        ),
    )
    .inSingletonScope();

  for (const controller of [ToolController, ToolPreviewController]) c.bind(controller).toSelf().inSingletonScope();

  return {
    // Invocation records are written behind the answer to the runtime; shutdown waits for them.
    background: [{ name: 'tool-invocation-records', start: async () => undefined, stop: () => invocations.flush() }],
    routeQuotas: [
      {
        method: 'POST',
        routes: ['/api/user/tools/:id/test'],
        buckets: (principal) => [
          { key: `tool-test:${principal.userId}`, limit: TOOL_TESTS_PER_MINUTE, windowSeconds: 60 },
        ],
      },
    ],
  };
};
