import { Tool, ToolCallResult } from '@voiceplane/domain';
import { SigningSecretRepository } from '../ports';
import { OutboundHttpClient, OutboundRequest } from '../ports';
import { InvokeToolForCall } from './invoke-tool-for-call';
import { AutomationToolRunner, ToolCallContext, ToolInvocationLog, ToolInvocationStart, ToolRepository } from './ports';
import { ToolGateway } from './tool-gateway';

/** The decisions of the runtime entry that the HTTP suites cannot reach: automation tools and who signs. */

const now = new Date('2026-03-01T10:00:00.000Z');
const clock = { now: () => now };
const ids = {
  token: (prefix: string) => `${prefix}0000000000000000000001`,
  secretToken: () => '',
  secretBytes: () => '',
  uuid: () => '',
};

const call: ToolCallContext = {
  callId: 4812,
  userId: 1,
  assistantId: 101,
  ended: false,
  attachedToolIds: [7, 8],
  customerPhone: '+14155551234',
  assistantPhone: null,
  direction: 'outbound',
  channel: 'phone',
  conversationId: null,
  timezone: 'UTC',
  variables: {},
  assistantVariables: {},
};

const httpTool: Tool = {
  id: 7,
  userId: 1,
  name: 'check_order',
  description: 'd',
  type: 'http',
  endpoint: 'https://api.example.com/orders',
  method: 'GET',
  bodyFormat: 'json',
  timeout: 10,
  headers: [],
  staticFields: [],
  schema: [],
  automationId: null,
  createdAt: now,
  updatedAt: now,
};
const automationTool: Tool = {
  ...httpTool,
  id: 8,
  name: 'lookup_prices',
  type: 'automation',
  endpoint: null,
  method: null,
  automationId: 'aut_1',
};

function setup(
  options: { automations?: AutomationToolRunner | null; previousSecretExpires?: Date; context?: ToolCallContext } = {},
) {
  const sent: OutboundRequest[] = [];
  const recorded: Array<[ToolInvocationStart, ToolCallResult]> = [];
  const http: OutboundHttpClient = {
    send: async (request) => {
      sent.push(request);
      return { ok: true, statusCode: 200, headers: {}, body: 'ok', durationMs: 5, error: null };
    },
  };
  const secrets: SigningSecretRepository = {
    create: async () => undefined,
    rotate: async () => {
      throw new Error('unused');
    },
    get: async (userId) => ({
      secret: `whsec_new${userId}`,
      createdAt: now,
      previousSecret: options.previousSecretExpires ? `whsec_old${userId}` : null,
      previousExpiresAt: options.previousSecretExpires ?? null,
    }),
  };
  const tools = {
    find: async (id: number) => [httpTool, automationTool].find((t) => t.id === id) ?? null,
  } as unknown as ToolRepository;
  const log = {
    record: (start: ToolInvocationStart, result: ToolCallResult) => recorded.push([start, result]),
  } as unknown as ToolInvocationLog;
  const invoke = new InvokeToolForCall(
    { forCall: async (id) => (id === call.callId ? (options.context ?? call) : null) },
    tools,
    log,
    {
      gateway: new ToolGateway(http, secrets, clock),
      automations: options.automations === undefined ? null : options.automations,
      clock,
      settings: { userAgent: 'voiceplane/test', policy: { requireHttps: false, allowPrivate: false } },
    },
    ids,
  );
  return { invoke, sent, recorded };
}

it('runs an automation tool in-process with the collected arguments and records it', async () => {
  const answer: ToolCallResult = {
    ok: true,
    statusCode: null,
    content: '{"price":12}',
    truncated: false,
    durationMs: 3,
    error: null,
    warnings: [],
  };
  const runner = { run: jest.fn(async () => answer) };
  const { invoke, sent, recorded } = setup({ automations: runner });
  const outcome = await invoke.execute({ callId: call.callId, toolId: 8, params: { sku: 'A' }, invocationId: null });
  expect(outcome).toEqual({ ok: true, value: answer });
  expect(runner.run).toHaveBeenCalledWith(automationTool, { sku: 'A' }, call);
  expect(sent).toEqual([]);
  expect(recorded).toEqual([
    [
      {
        id: 'tcl_0000000000000000000001',
        callId: 4812,
        userId: 1,
        toolId: 8,
        name: 'lookup_prices',
        invocationId: null,
        at: now,
      },
      answer,
    ],
  ]);
});

it('fails loudly when an automation tool is called and no automation runner is installed', async () => {
  const { invoke } = setup();
  await expect(invoke.execute({ callId: call.callId, toolId: 8, params: {}, invocationId: null })).rejects.toThrow(
    'No automation runner is installed for automation tools.',
  );
});

it.each([
  ['alone', undefined, ['whsec_new1']],
  ['with the previous secret during its grace period', new Date(now.getTime() + 1), ['whsec_new1', 'whsec_old1']],
  ['without the previous secret once its grace has passed', new Date(now.getTime()), ['whsec_new1']],
])("signs with the owner's secret %s", async (_case, previousSecretExpires, secrets) => {
  const { invoke, sent } = setup({ previousSecretExpires });
  await invoke.execute({ callId: call.callId, toolId: 7, params: {}, invocationId: null });
  expect(sent.map((r) => r.signing)).toEqual([{ secrets, webhookId: 'tcl_0000000000000000000001' }]);
  expect(sent[0]).toMatchObject({
    method: 'GET',
    url: 'https://api.example.com/orders',
    timeoutMs: 10_000,
    eventType: 'tool_call',
  });
});

it('treats an attached id whose tool belongs to someone else as missing', async () => {
  const { invoke, sent, recorded } = setup({ context: { ...call, userId: 2 } });
  expect(await invoke.execute({ callId: call.callId, toolId: 7, params: {}, invocationId: null })).toEqual({
    ok: false,
    error: 'tool_not_found',
  });
  expect(sent).toEqual([]);
  expect(recorded).toEqual([]);
});
