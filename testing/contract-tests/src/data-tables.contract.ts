import { DataTableRepository } from '@voiceplane/application';

const COLUMNS = [
  { name: 'order_number', type: 'string' as const },
  { name: 'status', type: 'string' as const },
  { name: 'qty', type: 'number' as const },
];

/** The DataTableRepository port's behaviour (the `table.lookup` step), run against every implementation. */
export function dataTablesContract(
  name: string,
  open: () => Promise<{ tables: DataTableRepository; newUser(): Promise<number> }>,
): void {
  describe(`DataTableRepository contract: ${name}`, () => {
    let tables: DataTableRepository;
    let userId: number;
    let other: number;

    beforeEach(async () => {
      const opened = await open();
      tables = opened.tables;
      userId = await opened.newUser();
      other = await opened.newUser();
    });

    it('creates tables with unique names per account, newest first, counting rows', async () => {
      const orders = await tables.create(userId, 'Orders', COLUMNS);
      expect(orders).toMatchObject({ userId, name: 'Orders', columns: COLUMNS, rowsCount: 0 });
      expect(await tables.create(userId, 'Orders', COLUMNS)).toBe('name_taken');
      expect(await tables.create(other, 'Orders', COLUMNS)).not.toBe('name_taken');
      const stock = await tables.create(userId, 'Stock', COLUMNS);
      if (orders === 'name_taken' || stock === 'name_taken') throw new Error('unexpected');
      await tables.addRows(orders.id, [{ order_number: 'A' }, { order_number: 'B' }], 10);
      expect((await tables.list(userId, { page: 1, perPage: 10 })).items.map((t) => [t.name, t.rowsCount])).toEqual([
        ['Stock', 0],
        ['Orders', 2],
      ]);
      expect((await tables.listAll(userId)).map((t) => t.name)).toEqual(['Orders', 'Stock']);
      expect(await tables.find(other, orders.id)).toBeNull();
      expect(await tables.delete(other, orders.id)).toBe(false);
      expect(await tables.delete(userId, orders.id)).toBe(true);
      expect(await tables.find(userId, orders.id)).toBeNull();
    });

    it('adds rows all or nothing within the limit, keeps column order, merges updates', async () => {
      const t = await tables.create(userId, 'Orders', COLUMNS);
      if (t === 'name_taken') throw new Error('unexpected');
      const added = await tables.addRows(
        t.id,
        [
          { qty: 2, status: 'new', order_number: 'A-1' },
          { order_number: 'A-2', status: null, qty: null },
        ],
        3,
      );
      if (added === 'table_full') throw new Error('unexpected');
      expect(added.map((r) => Object.keys(r.values))).toEqual([
        ['order_number', 'status', 'qty'],
        ['order_number', 'status', 'qty'],
      ]);
      expect(await tables.addRows(t.id, [{ order_number: 'x' }, { order_number: 'y' }], 3)).toBe('table_full');
      expect((await tables.listRows(t.id, { page: 1, perPage: 10 })).total).toBe(2);
      const updated = await tables.updateRow(t.id, added[0].id, { status: 'shipped' });
      expect(updated?.values).toEqual({ order_number: 'A-1', status: 'shipped', qty: 2 });
      expect(await tables.updateRow(t.id + 1, added[0].id, { status: 'x' })).toBeNull();
      expect((await tables.firstRow(t.id))?.id).toBe(added[0].id);
      expect(await tables.deleteRow(t.id, added[0].id)).toBe(true);
      expect(await tables.deleteRow(t.id, added[0].id)).toBe(false);
      expect((await tables.listRows(t.id, { page: 1, perPage: 1 })).items.map((r) => r.id)).toEqual([added[1].id]);
    });

    it('looks up the first row whose value matches, trimmed and case-insensitively; another account finds no table', async () => {
      const t = await tables.create(userId, 'Orders', COLUMNS);
      if (t === 'name_taken') throw new Error('unexpected');
      const added = await tables.addRows(
        t.id,
        [
          { order_number: ' a-1 ', status: 'first' },
          { order_number: 'A-1', status: 'second' },
          { order_number: 'B', qty: 7 },
        ],
        10,
      );
      if (added === 'table_full') throw new Error('unexpected');
      expect(await tables.lookup(userId, t.id, 'order_number', 'A-1 ')).toMatchObject({
        id: added[0].id,
        values: { order_number: ' a-1 ', status: 'first' },
      });
      expect(await tables.lookup(userId, t.id, 'qty', '7')).toMatchObject({ id: added[2].id });
      expect(await tables.lookup(userId, t.id, 'order_number', 'C')).toBeNull();
      expect(await tables.lookup(userId, t.id, 'status', '')).toBeNull();
      expect(await tables.lookup(other, t.id, 'order_number', 'A-1')).toBe('no_table');
    });
  });
}
