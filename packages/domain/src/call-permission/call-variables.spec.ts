import {
  CHATAPP_CALL_MAX_VARIABLE_LENGTH,
  CHATAPP_CALL_MAX_VARIABLES,
  normalizeChatappCallVariables,
} from './call-variables';

const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`v${i}`, 'x']));

describe('chat-app call variables (20 keys, values ≤ 500)', () => {
  it('has the contract limits', () => {
    expect([CHATAPP_CALL_MAX_VARIABLES, CHATAPP_CALL_MAX_VARIABLE_LENGTH]).toEqual([20, 500]);
  });

  it.each([
    [19, true],
    [20, true],
    [21, false],
  ])('%i keys: accepted %s', (n, accepted) => {
    const r = normalizeChatappCallVariables(keys(n));
    expect(r.ok).toBe(accepted);
    if (!r.ok) expect(r.error).toEqual({ variables: ['too_many'] });
  });

  it.each([
    [499, true],
    [500, true],
    [501, false],
  ])('a value of %i characters: accepted %s', (length, accepted) => {
    const r = normalizeChatappCallVariables({ note: 'a'.repeat(length) });
    expect(r).toEqual(
      accepted
        ? { ok: true, value: { note: 'a'.repeat(length) } }
        : { ok: false, error: { 'variables.note': ['too_long'] } },
    );
  });

  it('counts characters, not UTF-16 units', () => {
    expect(normalizeChatappCallVariables({ note: '😀'.repeat(500) }).ok).toBe(true);
    expect(normalizeChatappCallVariables({ note: '😀'.repeat(501) }).ok).toBe(false);
  });

  it('keeps the rules every call variable has: names, scalars as text, trimming; every bad entry is reported', () => {
    expect(normalizeChatappCallVariables({ count: 3, vip: true, name: '  Ann ' })).toEqual({
      ok: true,
      value: { count: '3', vip: 'true', name: 'Ann' },
    });
    expect(
      normalizeChatappCallVariables({ 'bad name': 'x', nested: { a: 1 }, long: 'b'.repeat(700), ok: 'fine' }),
    ).toEqual({
      ok: false,
      error: { 'variables.bad name': ['bad_name'], 'variables.nested': ['not_text'], 'variables.long': ['too_long'] },
    });
  });
});
