/**
 * Query strings: percent-decoded; `+` means space except in `*phone*` parameters, where clients
 * send E.164 numbers unencoded. Repeated keys keep the last value; `a[]=` lists.
 *
 * Kept rather than express's `qs` (issue 27): qs decodes `+` to a space in every value and its
 * decoder is not told which key a value belongs to, so `?phone=+15551234` would become " 15551234"
 * (an unencoded E.164 number is what clients send, and the specs hold it). qs also nests bracketed
 * names (`a[b]=1` → `{ a: { b: '1' } }`, where this API reads the literal key), turns list indexes
 * past 20 into object keys, and silently drops parameters past 1,000. Its `duplicates: 'last'`
 * and `[]` lists would match; the rest would need a second pass over qs's answer that is longer
 * than this function.
 */
export function parseQuery(qs: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (!qs) return out;
  for (const part of qs.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawKey = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? '' : part.slice(eq + 1);
    const key = decode(rawKey.replace(/\+/g, ' '));
    const keepPlus = /phone/i.test(key);
    const value = decode(keepPlus ? rawValue : rawValue.replace(/\+/g, ' '));
    if (key.endsWith('[]')) {
      const k = key.slice(0, -2);
      const prev = out[k];
      out[k] = Array.isArray(prev) ? [...prev, value] : prev === undefined ? [value] : [prev, value];
    } else {
      out[key] = value;
    }
  }
  return out;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
