import { normalizeVariables } from './assistant-messages';

describe('variables', () => {
  it.each([
    [{}, {}],
    [
      { company: 'Acme', _n: 3, vip: true, ratio: 0.5 },
      { company: 'Acme', _n: '3', vip: 'true', ratio: '0.5' },
    ],
    [{ padded: '  x  ' }, { padded: 'x' }],
    [{ ['a'.repeat(64)]: '' }, { ['a'.repeat(64)]: '' }],
  ])('%j is stored as %j', (input, output) => {
    expect(normalizeVariables(input)).toEqual({ ok: true, value: output });
  });

  it.each([
    [{ '1st': 'x' }, { 'variables.1st': ['The variables.1st format is invalid.'] }],
    [{ 'with-dash': 'x' }, { 'variables.with-dash': ['The variables.with-dash format is invalid.'] }],
    [
      { ['a'.repeat(65)]: 'x' },
      { [`variables.${'a'.repeat(65)}`]: [`The variables.${'a'.repeat(65)} format is invalid.`] },
    ],
    [{ nested: { a: 1 } }, { 'variables.nested': ['The variables.nested must be a string.'] }],
    [{ list: [1] }, { 'variables.list': ['The variables.list must be a string.'] }],
    [{ empty: null }, { 'variables.empty': ['The variables.empty must be a string.'] }],
    [{ long: 'x'.repeat(1001) }, { 'variables.long': ['The variables.long may not be greater than 1000 characters.'] }],
    [
      Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`v${i}`, 'x'])),
      { variables: ['The variables may not have more than 50 items.'] },
    ],
  ])('refuses %j', (input, errors) => {
    expect(normalizeVariables(input)).toEqual({ ok: false, error: errors });
  });

  it('accepts exactly 50 keys of 1000 characters', () => {
    const input = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`v${i}`, 'x'.repeat(1000)]));
    expect(normalizeVariables(input)).toEqual({ ok: true, value: input });
  });
});
