/** HTTP API connections (the CRM a `crm.push_note` posts to). */
export const CONNECTION_KINDS = ['http_api'] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];
export const CONNECTION_AUTH_TYPES = ['none', 'bearer', 'header', 'basic'] as const;
export type ConnectionAuthType = (typeof CONNECTION_AUTH_TYPES)[number];
export type ConnectionStatus = 'connected' | 'broken';
export const DEFAULT_NOTES_PATH = '/notes';

export interface Connection {
  readonly id: number;
  readonly userId: number;
  readonly name: string;
  readonly kind: ConnectionKind;
  readonly baseUrl: string;
  readonly notesPath: string;
  readonly authType: ConnectionAuthType;
  readonly authHeaderName: string | null;
  /** Sealed by the secret cipher; never shown. */
  readonly sealedAuthValue: string | null;
  readonly status: ConnectionStatus;
  readonly lastCheckedAt: Date | null;
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What is wrong with a connection's credentials, per field. */
export interface CredentialProblems {
  readonly auth_value?: 'required' | 'basic_format';
  readonly auth_header_name?: 'required';
}

/**
 * The credential rules across fields, on the connection as it would be stored: a value unless the
 * type is `none`, `user:password` for `basic`, a header name for `header`.
 */
export function credentialProblems(
  authType: ConnectionAuthType,
  authValue: string | null | undefined,
  headerName: string | null | undefined,
): CredentialProblems {
  const problems: { -readonly [K in keyof CredentialProblems]: CredentialProblems[K] } = {};
  if (authType !== 'none' && (authValue === undefined || authValue === null || authValue === ''))
    problems.auth_value = 'required';
  else if (authType === 'basic' && !String(authValue).includes(':')) problems.auth_value = 'basic_format';
  if (authType === 'header' && !headerName) problems.auth_header_name = 'required';
  return problems;
}

/** The header that carries the credentials; null for `none`. */
export function connectionAuthHeader(
  authType: ConnectionAuthType,
  headerName: string | null,
  secret: string | null,
): { name: string; value: string } | null {
  if (authType === 'none' || secret === null) return null;
  if (authType === 'bearer') return { name: 'Authorization', value: `Bearer ${secret}` };
  if (authType === 'basic') return { name: 'Authorization', value: `Basic ${base64(secret)}` };
  return { name: headerName ?? 'Authorization', value: secret };
}

/** The URL a note is posted to: the base URL without trailing slashes, then the notes path. */
export const notesUrl = (c: Pick<Connection, 'baseUrl' | 'notesPath'>): string =>
  `${c.baseUrl.replace(/\/+$/, '')}${c.notesPath}`;

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Base64 of the UTF-8 bytes (the domain has no Buffer). */
function base64(text: string): string {
  const bytes: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) bytes.push(cp);
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out +=
      B64[(n >> 18) & 63] +
      B64[(n >> 12) & 63] +
      (b === undefined ? '=' : B64[(n >> 6) & 63]) +
      (c === undefined ? '=' : B64[n & 63]);
  }
  return out;
}
