/**
 * Outbound target policy: which addresses and URLs voiceplane may send requests to.
 * Pure: the write-time check looks only at the URL text; the send-time address check is applied by
 * the outbound adapter to whatever DNS returned.
 */

export const MAX_TARGET_URL_LENGTH = 2048;

export interface TargetUrlPolicy {
  readonly requireHttps: boolean;
  /** Development override (`ALLOW_PRIVATE_TARGETS=1`): lifts the address and host-name checks only. */
  readonly allowPrivate: boolean;
}

export type TargetUrlRejection =
  | 'too_long'
  | 'not_absolute_url'
  | 'scheme_not_allowed'
  | 'userinfo_not_allowed'
  | 'blocked_address'
  | 'blocked_host';

export type TargetUrlCheck =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly reason: TargetUrlRejection };

// `{{ variable }}` first so that its inner braces are not taken for a `{param}`.
const PLACEHOLDER = /\{\{[^{}]*\}\}|\{[^{}]*\}/g;

/**
 * Write-time check of a stored URL template: placeholders become `x` (their values are only known
 * at send time, where the resolved address is checked again).
 */
export function checkTargetUrl(url: string, policy: TargetUrlPolicy): TargetUrlCheck {
  if (url.length > MAX_TARGET_URL_LENGTH) return { ok: false, reason: 'too_long' };
  let parsed: URL;
  try {
    // The WHATWG parser normalises host spellings (`0x7f.1`, `2130706433`, `[::ffff:127.0.0.1]`,
    // full-width letters) before we look at them, exactly as the sender will see them.
    parsed = new URL(url.replace(PLACEHOLDER, 'x'));
  } catch {
    return { ok: false, reason: 'not_absolute_url' };
  }
  return checkParsedTargetUrl(parsed, policy);
}

/** Scheme, userinfo and host checks of a concrete URL; the sender applies it before resolving. */
export function checkParsedTargetUrl(url: URL, policy: TargetUrlPolicy): TargetUrlCheck {
  if (url.protocol !== 'https:' && (policy.requireHttps || url.protocol !== 'http:')) {
    return { ok: false, reason: 'scheme_not_allowed' };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'userinfo_not_allowed' };
  if (!policy.allowPrivate) {
    const host = unbracketed(url.hostname);
    if (parseIPv4(host) !== null || parseIPv6(host) !== null) {
      if (isBlockedAddress(host)) return { ok: false, reason: 'blocked_address' };
    } else if (isBlockedHostName(host)) {
      return { ok: false, reason: 'blocked_host' };
    }
  }
  return { ok: true, url };
}

const BLOCKED_NAMES = new Set(['localhost', 'metadata', 'metadata.google.internal']);

/** Names that reach the machine itself or a cloud metadata service whatever DNS says. */
export function isBlockedHostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return BLOCKED_NAMES.has(name) || name.endsWith('.localhost');
}

/**
 * True when `ip` lies in a blocked range. Anything that does not parse as an address is blocked
 * too: a caller that passes a name has skipped resolution, and we cannot vouch for it.
 */
export function isBlockedAddress(ip: string): boolean {
  const v4 = parseIPv4(ip);
  if (v4 !== null) return isBlockedIPv4(v4);
  const v6 = parseIPv6(unbracketed(ip));
  if (v6 !== null) return isBlockedIPv6(v6);
  return true;
}

// [network, prefix length]
const BLOCKED_IPV4: ReadonlyArray<readonly [number, number]> = [
  [ipv4(0, 0, 0, 0), 8],
  [ipv4(10, 0, 0, 0), 8],
  [ipv4(100, 64, 0, 0), 10],
  [ipv4(127, 0, 0, 0), 8],
  [ipv4(169, 254, 0, 0), 16],
  [ipv4(172, 16, 0, 0), 12],
  [ipv4(192, 0, 0, 0), 24],
  [ipv4(192, 168, 0, 0), 16],
  [ipv4(198, 18, 0, 0), 15],
  [ipv4(224, 0, 0, 0), 4],
  [ipv4(240, 0, 0, 0), 4], // includes 255.255.255.255
];

function isBlockedIPv4(address: number): boolean {
  return BLOCKED_IPV4.some(([network, prefix]) => address >>> (32 - prefix) === network >>> (32 - prefix));
}

function isBlockedIPv6(groups: readonly number[]): boolean {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups;
  const first80Zero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (first80Zero && g5 === 0xffff) return isBlockedIPv4(g6 * 0x10000 + g7);
  // ::/96 holds ::/128 and ::1/128; the rest are deprecated IPv4-compatible addresses that some
  // stacks still route to IPv4, and no public service uses them.
  if (first80Zero && g5 === 0) return true;
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return true;
  return (g0 & 0xfe00) === 0xfc00 || (g0 & 0xffc0) === 0xfe80 || (g0 & 0xff00) === 0xff00;
}

function ipv4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

/**
 * IPv4 in every spelling the WHATWG URL host parser and inet_aton accept: 1–4 parts, each decimal,
 * `0x` hex or leading-zero octal, the last part filling the remaining bytes (`127.1`, `2130706433`).
 */
function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const n = parseIPv4Part(part);
    if (n === null) return null;
    numbers.push(n);
  }
  const last = numbers.pop() as number;
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return null;
  return numbers.reduce((acc, n, i) => acc + n * 256 ** (3 - i), last);
}

function parseIPv4Part(part: string): number | null {
  if (/^0[xX][0-9a-fA-F]*$/.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part.slice(1), 8);
  if (/^(0|[1-9][0-9]*)$/.test(part)) return Number(part);
  return null;
}

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const DOTTED_QUAD = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`);

/** Eight 16-bit groups; accepts `::` compression, a dotted IPv4 tail and a `%zone` suffix. */
function parseIPv6(text: string): number[] | null {
  const address = text.split('%', 1)[0];
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const head = groupsOf(halves[0]);
  const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (head === null || tail === null) return null;
  const count = head.length + tail.length;
  if (halves.length === 2 ? count > 7 : count !== 8) return null;
  return [...head, ...new Array<number>(8 - count).fill(0), ...tail];
}

function groupsOf(text: string): number[] | null {
  if (text === '') return [];
  const pieces = text.split(':');
  const groups: number[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (i === pieces.length - 1 && piece.includes('.')) {
      // Only strict dotted-decimal is valid here (RFC 4291, section 2.2), unlike a bare IPv4 host.
      if (!DOTTED_QUAD.test(piece)) return null;
      const v4 = parseIPv4(piece) as number;
      groups.push(v4 >>> 16, v4 & 0xffff);
    } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) {
      groups.push(parseInt(piece, 16));
    } else {
      return null;
    }
  }
  return groups;
}

function unbracketed(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
