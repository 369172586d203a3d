import { checkColumns, checkRowValues, utf8Length } from './data-tables';
import { connectionAuthHeader, notesUrl } from './connections';

describe('data table rules', () => {
  it('accepts 1–20 uniquely named typed columns', () => {
    expect(
      checkColumns([
        { name: 'order_number', type: 'string' },
        { name: 'qty', type: 'number' },
      ]),
    ).toEqual({
      columns: [
        { name: 'order_number', type: 'string' },
        { name: 'qty', type: 'number' },
      ],
      problems: {},
    });
    expect(
      Object.keys(
        checkColumns([
          { name: 'a', type: 'string' },
          { name: 'a', type: 'number' },
          { name: '1b', type: 'date' },
        ]).problems,
      ),
    ).toEqual(['columns.1.name', 'columns.2.name', 'columns.2.type']);
    expect(checkColumns([]).problems).toEqual({ columns: [{ code: 'item_count', min: 1, max: 20 }] });
    expect(checkColumns('x').problems).toEqual({ columns: [{ code: 'not_array' }] });
  });

  it('checks row values against the columns; absent columns are null on a full row only', () => {
    const columns = [
      { name: 'sku', type: 'string' as const },
      { name: 'paid', type: 'boolean' as const },
    ];
    expect(checkRowValues(columns, { sku: 'A' }, 'values', false)).toEqual({
      values: { sku: 'A', paid: null },
      problems: {},
    });
    expect(checkRowValues(columns, { paid: true }, 'values', true)).toEqual({ values: { paid: true }, problems: {} });
    expect(checkRowValues(columns, { sku: 1, other: 'x' }, 'rows.0.values', false).problems).toEqual({
      'rows.0.values.sku': [{ code: 'wrong_type', type: 'string' }],
      'rows.0.values.other': [{ code: 'unknown_column' }],
    });
    expect(checkRowValues(columns, { sku: 'é'.repeat(4_200) }, 'values', false).problems).toEqual({
      values: [{ code: 'too_large', maxBytes: 8192 }],
    });
    expect(utf8Length('aé€😀')).toBe(1 + 2 + 3 + 4);
  });
});

describe('connection requests', () => {
  it('sends the credentials the auth type says', () => {
    expect(connectionAuthHeader('none', null, null)).toBeNull();
    expect(connectionAuthHeader('bearer', null, 't')).toEqual({ name: 'Authorization', value: 'Bearer t' });
    expect(connectionAuthHeader('basic', null, 'ann:pä:ss')).toEqual({
      name: 'Authorization',
      value: `Basic ${Buffer.from('ann:pä:ss').toString('base64')}`,
    });
    expect(connectionAuthHeader('header', 'X-Api-Key', 'k')).toEqual({ name: 'X-Api-Key', value: 'k' });
    expect(notesUrl({ baseUrl: 'https://crm.example/api//', notesPath: '/notes' })).toBe(
      'https://crm.example/api/notes',
    );
  });
});
