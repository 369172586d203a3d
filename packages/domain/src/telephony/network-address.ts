/**
 * Address shapes accepted on SIP trunks, as anchored regular expressions so the
 * HTTP layer can enforce them and publish them in the OpenAPI document unchanged.
 */

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;

const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
/** Up to `n + 1` groups before a `::` (RFC 3986 section 3.2.2 grammar). */
const before = (n: number) => `(?:(?:${H16}:){0,${n}}${H16})?`;
const IPV6 = `(?:${[
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `${before(0)}::(?:${H16}:){4}${LS32}`,
  `${before(1)}::(?:${H16}:){3}${LS32}`,
  `${before(2)}::(?:${H16}:){2}${LS32}`,
  `${before(3)}::${H16}:${LS32}`,
  `${before(4)}::${LS32}`,
  `${before(5)}::${H16}`,
  `${before(6)}::`,
].join('|')})`;

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
// The last label may not be all digits: `999.1.1.1` is a broken IPv4 address, not a host name.
const HOST_NAME = `(?=.{1,253}$)(?:${LABEL}\\.)*(?![0-9]+$)${LABEL}`;

/** One entry of `allowed_inbound_ips`: an IPv4/IPv6 address or CIDR block. */
export const IP_OR_CIDR_PATTERN = new RegExp(
  `^(?:${IPV4}(?:/(?:3[0-2]|[12]?\\d))?|${IPV6}(?:/(?:12[0-8]|1[01]\\d|[1-9]?\\d))?)$`,
);

/**
 * `sip_address`: a host name or an IP address (IPv6 bare or in brackets) — no scheme, no port,
 * no path, no user part.
 */
export const SIP_HOST_PATTERN = new RegExp(`^(?:${IPV4}|${IPV6}|\\[${IPV6}\\]|${HOST_NAME})$`);

export const isIpOrCidr = (value: string): boolean => IP_OR_CIDR_PATTERN.test(value);
export const isSipHost = (value: string): boolean => SIP_HOST_PATTERN.test(value);
