import { dialledNumber } from './dialling';

describe('dialled number per calling format', () => {
  it.each([
    ['+14155551234', '+e164', '+14155551234'],
    ['+14155551234', 'e164', '14155551234'],
    ['+14155551234', 'national', '4155551234'],
    ['+442071234567', 'national', '02071234567'],
    ['+4512345678', 'national', '12345678'],
    ['+493012345678', 'national', '03012345678'],
    ['+33142685300', 'national', '33142685300'],
  ])('%s as %s → %s', (number, format, expected) => {
    expect(dialledNumber(number, format)).toBe(expected);
  });
});
