import { smsSegments } from './segments';

describe('smsSegments', () => {
  it.each([
    ['', 'gsm7', 0, 1],
    ['Hello! How are you?', 'gsm7', 19, 1],
    ['a'.repeat(160), 'gsm7', 160, 1],
    ['a'.repeat(161), 'gsm7', 161, 2],
    ['a'.repeat(306), 'gsm7', 306, 2],
    ['a'.repeat(307), 'gsm7', 307, 3],
    // Accented letters of the GSM alphabet stay 7-bit.
    ['Grüße aus München, Ärger über Öl: ñ é à ø Å', 'gsm7', 43, 1],
  ])('%j is %s, %i units, %i segment(s)', (body, encoding, units, segments) => {
    expect(smsSegments(body)).toEqual({ encoding, units, segments });
  });

  it('counts a GSM extension character as two septets', () => {
    expect(smsSegments('€')).toEqual({ encoding: 'gsm7', units: 2, segments: 1 });
    expect(smsSegments('{}[]~|^\\€\f')).toEqual({ encoding: 'gsm7', units: 20, segments: 1 });
    // 79 × 2 + 2 = 160 septets fit one message; one more septet does not.
    expect(smsSegments('€'.repeat(80)).segments).toBe(1);
    expect(smsSegments(`${'€'.repeat(80)}a`).segments).toBe(2);
  });

  it('never splits an escaped pair across two parts', () => {
    // 152 plain septets, then an extension character: the pair would straddle 153, so the first part ends at 152.
    const body = `${'a'.repeat(152)}€${'a'.repeat(152)}`;
    expect(smsSegments(body)).toEqual({ encoding: 'gsm7', units: 306, segments: 3 });
    // Without the straddle the same number of septets fits two parts.
    expect(smsSegments(`${'a'.repeat(151)}€${'a'.repeat(153)}`).segments).toBe(2);
  });

  it('switches to UCS-2 for any character outside the GSM alphabet', () => {
    expect(smsSegments('Hello ç')).toEqual({ encoding: 'ucs2', units: 7, segments: 1 });
    expect(smsSegments('ä'.repeat(69) + 'ç')).toEqual({ encoding: 'ucs2', units: 70, segments: 1 });
    expect(smsSegments('ç'.repeat(71))).toEqual({ encoding: 'ucs2', units: 71, segments: 2 });
    expect(smsSegments('ç'.repeat(134))).toEqual({ encoding: 'ucs2', units: 134, segments: 2 });
    expect(smsSegments('ç'.repeat(135))).toEqual({ encoding: 'ucs2', units: 135, segments: 3 });
    // Extension characters are one code unit in UCS-2.
    expect(smsSegments('€ç')).toEqual({ encoding: 'ucs2', units: 2, segments: 1 });
  });

  it('counts an emoji as two code units and keeps the surrogate pair in one part', () => {
    expect(smsSegments('Hi 👋')).toEqual({ encoding: 'ucs2', units: 5, segments: 1 });
    // Famulor's example: a message with emojis and 100 characters is 2 segments.
    expect(smsSegments(`${'a'.repeat(98)}👋`).segments).toBe(2);
    // 66 units, then a pair that would straddle 67: the part ends at 66.
    const body = `${'ç'.repeat(66)}👋${'ç'.repeat(66)}`;
    expect(smsSegments(body)).toEqual({ encoding: 'ucs2', units: 134, segments: 3 });
  });
});
