import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/**
 * Meta signs every notification with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(app secret,
 * raw body)>`. The HMAC is taken over the bytes as received (a re-serialised JSON body would not
 * match) and compared in constant time, so the comparison does not tell how much of a guess was right.
 */
export function hubSignatureHolds(appSecret: string, rawBody: Buffer, header: string | null): boolean {
  const match = header === null ? null : SIGNATURE.exec(header.trim());
  if (match === null) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(match[1], 'hex'));
}

/** What Meta would send for these bytes (for tests and local tooling). */
export function hubSignatureOf(appSecret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/** Equal strings, compared in constant time for equal lengths (the verify token of the handshake). */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
