import { decodablePath, unsafeTextErrors, unsafeTextPath } from './input-guard';

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

  it.each([[{ name: 'Zoë 😀 \ud83d\ude00' }], [{ n: 1, b: true, x: null, list: ['a', 'b'] }], [[]]])('accepts %j', (value) => {
    expect(unsafeTextPath(value)).toBeNull();
  });

  it('words the error like the catalogue: top-level keys as words, item keys literal', () => {
    expect(unsafeTextErrors('system_prompt')).toEqual({ system_prompt: ['The system prompt contains characters that are not allowed.'] });
    expect(unsafeTextErrors('headers.0.value')).toEqual({ 'headers.0.value': ['The headers.0.value contains characters that are not allowed.'] });
  });

  it('keeps decodable paths and takes undecodable segments literally', () => {
    expect(decodablePath('/api/user/assistant/12')).toBe('/api/user/assistant/12');
    expect(decodablePath('/api/user/assistant/a%20b')).toBe('/api/user/assistant/a%20b');
    expect(decodablePath('/api/user/assistant/%ff')).toBe('/api/user/assistant/%25ff');
    expect(decodablePath('/api/user/tools/%E0%A4%A/x')).toBe('/api/user/tools/%25E0%25A4%25A/x');
  });
});
