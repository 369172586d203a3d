import { FakeStore, ScriptedHttpClient } from '@voiceplane/adapter-fakes';
import { ToolFields } from '@voiceplane/domain';
import { ToolGateway } from './tool-gateway';
import { ToolPreview, ToolPreviewInput } from './tool-preview';

/** Render's and test's decisions on the in-memory tool repository (proven by the tool repository contract). */

const START = new Date('2030-04-01T09:00:00.000Z');
const FIELDS: ToolFields = {
  name: 'lookup_order',
  description: 'Finds an order',
  endpoint: 'https://api.example.com/orders',
  method: 'POST',
  bodyFormat: 'json',
  timeout: 10,
  headers: [],
  staticFields: [],
  schema: [],
};
const INPUT: ToolPreviewInput = { params: {}, variables: {}, callId: null };

async function setup() {
  const store = new FakeStore(START);
  const http = new ScriptedHttpClient();
  const preview = new ToolPreview(
    store.tools,
    null,
    new ToolGateway(http, store.secrets, store.clock),
    store.clock,
    store.ids,
    {
      userAgent: 'voiceplane/test',
      policy: { requireHttps: false, allowPrivate: false },
    },
    store.uow,
  );
  const tool = await store.tools.createWithinLimit(1, FIELDS, 5);
  if (tool === null) throw new Error('no tool');
  return { preview, tool };
}

it("reads the request only for the caller's own tool, so a missing tool answers before a bad body", async () => {
  const { preview, tool } = await setup();
  const inputOf = jest.fn((): ToolPreviewInput => {
    throw new Error('malformed body');
  });

  expect(await preview.render(2, tool.id, inputOf)).toEqual({ ok: false, error: 'tool_not_found' });
  expect(await preview.test(2, tool.id, inputOf)).toEqual({ ok: false, error: 'tool_not_found' });
  expect(inputOf).not.toHaveBeenCalled();
  await expect(preview.render(1, tool.id, inputOf)).rejects.toThrow('malformed body');
});

it('renders the exact request of an own tool, and refuses a call_id no calls capability can name', async () => {
  const { preview, tool } = await setup();
  expect(await preview.render(1, tool.id, () => INPUT)).toEqual({
    ok: true,
    value: expect.objectContaining({ method: 'POST', url: 'https://api.example.com/orders' }),
  });
  expect(await preview.render(1, tool.id, () => ({ ...INPUT, callId: 4 }))).toEqual({
    ok: false,
    error: 'call_not_found',
  });
});
