import { decodablePath, jsonNestsDeeperThan, unsafeTextErrors, unsafeTextPath } from './input-guard';

describe('input guard', () => {
  it.each([
    [{ name: 'a\u0000b' }, 'name'],
    [{ headers: [{ name: 'ok', value: 'x\u0000' }] }, 'headers.0.value'],
    [{ plan: { name: '\ud800' } }, 'plan.name'],
    [{ name: 'tail\udc00' }, 'name'],
    [{ 'bad\u0000key': 1 }, 'body'],
    ['\u0000', 'body'],
  ])('finds unsafe text in %j at %p', (value, path) => {
    expect(unsafeTextPath(value)).toBe(path);
  });

  it.each([[{ name: 'Zoë 😀 \ud83d\ude00' }], [{ n: 1, b: true, x: null, list: ['a', 'b'] }], [[]]])(
    'accepts %j',
    (value) => {
      expect(unsafeTextPath(value)).toBeNull();
    },
  );

  it('words the error like the catalogue: top-level keys as words, item keys literal', () => {
    expect(unsafeTextErrors('system_prompt')).toEqual({
      system_prompt: ['The system prompt contains characters that are not allowed.'],
    });
    expect(unsafeTextErrors('headers.0.value')).toEqual({
      'headers.0.value': ['The headers.0.value contains characters that are not allowed.'],
    });
  });

  it('keeps decodable paths and takes undecodable segments literally', () => {
    expect(decodablePath('/api/user/assistant/12')).toBe('/api/user/assistant/12');
    expect(decodablePath('/api/user/assistant/a%20b')).toBe('/api/user/assistant/a%20b');
    expect(decodablePath('/api/user/assistant/%ff')).toBe('/api/user/assistant/%25ff');
    expect(decodablePath('/api/user/tools/%E0%A4%A/x')).toBe('/api/user/tools/%25E0%25A4%25A/x');
  });

  it('walks a body nested 100,000 levels without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { a: deep };
    expect(unsafeTextPath(deep)).toMatch(/^0\.a\.0\.a\./);
    let clean: unknown = 'x';
    for (let i = 0; i < 100_000; i++) clean = [clean];
    expect(unsafeTextPath(clean)).toBeNull();
  });

  it('finds the first unsafe text in document order', () => {
    expect(unsafeTextPath({ a: [{ b: 'ok' }, { c: '\u0000' }], d: '\u0000' })).toBe('a.1.c');
    expect(unsafeTextPath({ a: 'ok', ['\u0000']: 'x', b: '\u0000' })).toBe('body');
  });

  it('measures JSON nesting outside strings', () => {
    expect(jsonNestsDeeperThan('[[[]]]', 3)).toBe(false);
    expect(jsonNestsDeeperThan('[[[[]]]]', 3)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":"[[[[[[","b":"\\"}', 1)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":"\\"[[["}', 1)).toBe(false);
    expect(jsonNestsDeeperThan('[{},{},{},{}]', 2)).toBe(false);
  });

  it('takes a segment that decodes to a NUL or a lone surrogate literally', () => {
    expect(decodablePath('/api/sandbox/chatapp/messages/%00/status')).toBe(
      '/api/sandbox/chatapp/messages/%2500/status',
    );
    expect(decodablePath('/api/user/assistant/a%00b')).toBe('/api/user/assistant/a%2500b');
    expect(decodablePath('/api/user/assistant/%ED%A0%80')).toBe('/api/user/assistant/%25ED%25A0%2580');
  });
});
