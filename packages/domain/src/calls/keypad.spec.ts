import { DTMF_DIGITS_PATTERN, KEYPAD_ENTRY_MAX, keypadEntry } from './keypad';

describe('keypad entry of a typed line', () => {
  it('keeps the keys before the stop key, in order; separators are no keys', () => {
    expect(keypadEntry('4711#', '#')).toEqual({ digits: '4711', words: false });
    expect(keypadEntry('47 11-0 #99', '#')).toEqual({ digits: '47110', words: false });
    expect(keypadEntry('12#34*', '*')).toEqual({ digits: '12#34', words: false });
    expect(keypadEntry('4711', '#')).toEqual({ digits: '4711', words: false });
  });

  it('a line without keys is an empty entry; letters make it words as well', () => {
    expect(keypadEntry('#', '#')).toEqual({ digits: '', words: false });
    expect(keypadEntry('I do not have it', '#')).toEqual({ digits: '', words: true });
    expect(keypadEntry('it is 4711', '#')).toEqual({ digits: '4711', words: true });
    expect(keypadEntry('Straße 7', '#')).toEqual({ digits: '7', words: true });
  });

  it('keeps at most the entry limit of keys', () => {
    expect(keypadEntry('1'.repeat(100), '#').digits).toHaveLength(KEYPAD_ENTRY_MAX);
  });

  it('dtmf digits: 1 to 32 keypad keys', () => {
    expect(['1', '12#*', '9'.repeat(32)].every((d) => DTMF_DIGITS_PATTERN.test(d))).toBe(true);
    expect(['', '12a', '9'.repeat(33), ' 1'].some((d) => DTMF_DIGITS_PATTERN.test(d))).toBe(false);
  });
});
