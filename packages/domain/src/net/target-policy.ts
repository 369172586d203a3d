import ipaddr from 'ipaddr.js';

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
    if (parseAddress(host) !== null) {
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
  const address = parseAddress(unbracketed(ip));
  if (address === null) return true;
  return address.kind() === 'ipv4' ? isBlockedIPv4(address as ipaddr.IPv4) : isBlockedIPv6(address as ipaddr.IPv6);
}

/** Ranges no request may reach: this network, private, shared (CGNAT), loopback, link-local, reserved, multicast, broadcast. */
const BLOCKED_IPV4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/4',
  '240.0.0.0/4', // includes 255.255.255.255
].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));

const BLOCKED_IPV6 = [
  // ::/96 holds ::/128 and ::1/128; the rest are deprecated IPv4-compatible addresses that some
  // stacks still route to IPv4, and no public service uses them.
  '::/96',
  '64:ff9b::/96', // NAT64: reaches the IPv4 address in its last 32 bits
  'fc00::/7', // unique local
  'fe80::/10', // link-local
  'ff00::/8', // multicast
].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

function isBlockedIPv4(address: ipaddr.IPv4): boolean {
  return BLOCKED_IPV4.some((range) => address.match(range));
}

function isBlockedIPv6(address: ipaddr.IPv6): boolean {
  if (address.isIPv4MappedAddress()) return isBlockedIPv4(address.toIPv4Address());
  return BLOCKED_IPV6.some((range) => address.match(range));
}

/**
 * An address in every spelling the WHATWG URL host parser and inet_aton accept for IPv4 (1–4 parts,
 * each decimal, `0x` hex or leading-zero octal, the last filling the remaining bytes: `127.1`,
 * `2130706433`, a trailing dot), or IPv6 with `::` compression, a strict dotted-decimal IPv4 tail
 * and a `%zone` suffix; null for anything else (a host name).
 */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const v4 = text.endsWith('.') && !text.endsWith('..') ? text.slice(0, -1) : text;
  if (ipaddr.IPv4.isValid(v4)) return ipaddr.IPv4.parse(v4);
  // RFC 4291, section 2.2: only dotted decimal may end an IPv6 address, unlike a bare IPv4 host. The
  // tail is written as two hex groups first: ipaddr.js reads any dotted tail as IPv4-mapped
  // (`::8.8.8.8` as `::ffff:808:808`), which would let IPv4-compatible addresses through.
  const v4Tail = /:([^:%]*\.[^:%]*)(%.*)?$/.exec(text);
  let v6 = text;
  if (v4Tail !== null) {
    if (!ipaddr.IPv4.isValidFourPartDecimal(v4Tail[1])) return null;
    const [a, b, c, d] = ipaddr.IPv4.parse(v4Tail[1]).octets;
    const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
    v6 = `${text.slice(0, v4Tail.index + 1)}${hex}${v4Tail[2] ?? ''}`;
  }
  return ipaddr.IPv6.isValid(v6) ? ipaddr.IPv6.parse(v6) : null;
}

function unbracketed(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
