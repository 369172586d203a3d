import { ToolFields } from '@voiceplane/domain';
import { ToolRepository } from '@voiceplane/application';

export interface ToolRepositoryFixture {
  readonly tools: ToolRepository;
  /** Two accounts tools may belong to. */
  readonly users: readonly [number, number];
}

const FIELDS: ToolFields = {
  name: 'lookup_order',
  description: 'Finds an order',
  endpoint: 'https://api.example.com/orders',
  method: 'POST',
  bodyFormat: 'json',
  timeout: 10,
  headers: [{ name: 'X-Key', value: 'k' }],
  staticFields: [{ key: 'source', value: 'voice' }],
  schema: [{ name: 'order_id', type: 'string', description: 'The order', required: true }],
};

/** The ToolRepository port's behaviour, run against every implementation. `open` gives an empty store for each test. */
export function toolRepositoryContract(name: string, open: () => Promise<ToolRepositoryFixture>): void {
  describe(`ToolRepository contract: ${name}`, () => {
    let f: ToolRepositoryFixture;

    beforeEach(async () => {
      f = await open();
    });

    it('creates HTTP tools up to the limit, counting each account on its own', async () => {
      const first = await f.tools.createWithinLimit(f.users[0], FIELDS, 2);

      expect(first).toEqual({
        ...FIELDS,
        id: expect.any(Number),
        userId: f.users[0],
        type: 'http',
        automationId: null,
        createdAt: expect.any(Date),
        updatedAt: expect.any(Date),
      });
      expect(await f.tools.createWithinLimit(f.users[0], { ...FIELDS, name: 'second' }, 2)).not.toBeNull();
      expect(await f.tools.createWithinLimit(f.users[0], { ...FIELDS, name: 'third' }, 2)).toBeNull();
      expect(await f.tools.createWithinLimit(f.users[1], FIELDS, 2)).not.toBeNull();
    });

    it('shows a tool to its owner, and any tool to `find`', async () => {
      const tool = (await f.tools.createWithinLimit(f.users[0], FIELDS, 10))!;

      expect(await f.tools.findForUser(f.users[0], tool.id)).toEqual(tool);
      expect(await f.tools.findForUser(f.users[1], tool.id)).toBeNull();
      expect(await f.tools.find(tool.id)).toEqual(tool);
      expect(await f.tools.find(tool.id + 1000)).toBeNull();
    });

    it("lists the user's tools among given ids in the order of the ids, leaving out others' and missing ones", async () => {
      const a = (await f.tools.createWithinLimit(f.users[0], FIELDS, 10))!;
      const b = (await f.tools.createWithinLimit(f.users[0], { ...FIELDS, name: 'b' }, 10))!;
      const foreign = (await f.tools.createWithinLimit(f.users[1], FIELDS, 10))!;

      expect((await f.tools.listByIds(f.users[0], [b.id, foreign.id, a.id, b.id + 1000])).map((t) => t.id)).toEqual([
        b.id,
        a.id,
      ]);
      expect(await f.tools.listByIds(f.users[0], [])).toEqual([]);
      const page = await f.tools.list(f.users[0], { page: 1, perPage: 1 });
      expect(page).toEqual({ items: [b], total: 2 });
    });

    it("changes only the fields given, and deletes only the owner's tool", async () => {
      const tool = (await f.tools.createWithinLimit(f.users[0], FIELDS, 10))!;

      const changed = await f.tools.update(f.users[0], tool.id, { name: 'renamed', headers: [] });

      expect(changed).toEqual({ ...tool, name: 'renamed', headers: [], updatedAt: expect.any(Date) });
      expect(await f.tools.update(f.users[1], tool.id, { name: 'stolen' })).toBeNull();
      expect(await f.tools.delete(f.users[1], tool.id)).toBe(false);
      expect(await f.tools.delete(f.users[0], tool.id)).toBe(true);
      expect(await f.tools.find(tool.id)).toBeNull();
    });
  });
}
