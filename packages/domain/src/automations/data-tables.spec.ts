import { checkColumns, checkRowValues, utf8Length } from './data-tables';
import { connectionAuthHeader, notesUrl } from './connections';

describe('data table rules', () => {
  it('accepts 1–20 uniquely named typed columns', () => {
    expect(checkColumns([{ name: 'order_number', type: 'string' }, { name: 'qty', type: 'number' }])).toEqual({
      columns: [{ name: 'order_number', type: 'string' }, { name: 'qty', type: 'number' }], errors: {},
    });
    expect(Object.keys(checkColumns([{ name: 'a', type: 'string' }, { name: 'a', type: 'number' }, { name: '1b', type: 'date' }]).errors)).toEqual(['columns.1.name', 'columns.2.name', 'columns.2.type']);
    expect(checkColumns([]).errors).toEqual({ columns: ['The columns field must have between 1 and 20 items.'] });
    expect(checkColumns('x').errors).toEqual({ columns: ['The columns field must be an array.'] });
  });

  it('checks row values against the columns; absent columns are null on a full row only', () => {
    const columns = [{ name: 'sku', type: 'string' as const }, { name: 'paid', type: 'boolean' as const }];
    expect(checkRowValues(columns, { sku: 'A' }, 'values', false)).toEqual({ values: { sku: 'A', paid: null }, errors: {} });
    expect(checkRowValues(columns, { paid: true }, 'values', true)).toEqual({ values: { paid: true }, errors: {} });
    expect(checkRowValues(columns, { sku: 1, other: 'x' }, 'rows.0.values', false).errors).toEqual({
      'rows.0.values.sku': ['The rows.0.values.sku must be a string.'], 'rows.0.values.other': ['The rows.0.values.other column does not exist.'],
    });
    expect(checkRowValues(columns, { sku: 'é'.repeat(4_200) }, 'values', false).errors).toEqual({ values: ['The values may not be greater than 8 kilobytes.'] });
    expect(utf8Length('aé€😀')).toBe(1 + 2 + 3 + 4);
  });
});

describe('connection requests', () => {
  it('sends the credentials the auth type says', () => {
    expect(connectionAuthHeader('none', null, null)).toBeNull();
    expect(connectionAuthHeader('bearer', null, 't')).toEqual({ name: 'Authorization', value: 'Bearer t' });
    expect(connectionAuthHeader('basic', null, 'ann:pä:ss')).toEqual({ name: 'Authorization', value: `Basic ${Buffer.from('ann:pä:ss').toString('base64')}` });
    expect(connectionAuthHeader('header', 'X-Api-Key', 'k')).toEqual({ name: 'X-Api-Key', value: 'k' });
    expect(notesUrl({ baseUrl: 'https://crm.example/api//', notesPath: '/notes' })).toBe('https://crm.example/api/notes');
  });
});
