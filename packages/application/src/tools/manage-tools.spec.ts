import { InMemoryToolRepository, InMemoryUnitOfWork, ManualClock } from '@voiceplane/adapter-fakes';
import { ToolFields } from '@voiceplane/domain';
import { ManageTools } from './manage-tools';

/** Tool management's decisions on the in-memory repository (proven by the tool repository contract). */

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
const owner = (userId: number, max = 2) => ({ userId, plan: { max_mid_call_tools: max } });

function setup() {
  return new ManageTools(
    new InMemoryToolRepository(new ManualClock(new Date('2030-04-01T09:00:00.000Z'))),
    new InMemoryUnitOfWork(),
  );
}

it("creates tools up to the plan's limit and then refuses, naming the limit", async () => {
  const tools = setup();
  expect((await tools.create(owner(1), FIELDS)).ok).toBe(true);
  expect((await tools.create(owner(1), { ...FIELDS, name: 'second' })).ok).toBe(true);
  expect(await tools.create(owner(1), { ...FIELDS, name: 'third' })).toEqual({
    ok: false,
    error: { code: 'plan_limit', limit: 2 },
  });
  expect((await tools.create(owner(2), FIELDS)).ok).toBe(true);
});

it("never reaches another account's tool, and reads the changes against the stored tool", async () => {
  const tools = setup();
  const created = await tools.create(owner(1), FIELDS);
  const id = created.ok ? created.value.id : 0;
  const changesFor = jest.fn((existing: { name: string }) => ({ name: `${existing.name}_v2` }));

  expect(await tools.get(2, id)).toEqual({ ok: false, error: 'tool_not_found' });
  expect(await tools.update(2, id, changesFor)).toEqual({ ok: false, error: 'tool_not_found' });
  expect(changesFor).not.toHaveBeenCalled();
  expect(await tools.delete(2, id)).toEqual({ ok: false, error: 'tool_not_found' });

  expect(await tools.update(1, id, changesFor)).toEqual({
    ok: true,
    value: expect.objectContaining({ id, name: 'lookup_order_v2' }),
  });
  expect(await tools.delete(1, id)).toEqual({ ok: true, value: true });
  expect(await tools.get(1, id)).toEqual({ ok: false, error: 'tool_not_found' });
});
