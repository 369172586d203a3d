/** Randomness is a process boundary: tokens and string ids come from here. */
export interface Ids {
  /** `prefix` + `length` base62 characters from a CSPRNG, for identifiers (request ids, message sids, event ids). */
  token(prefix: string, length: number): string;
  /** Like `token`, from randomness drawn for this token alone: API keys, session tokens, hook tokens. */
  secretToken(prefix: string, length: number): string;
  /** Raw random bytes, base64 encoded (signing secrets). */
  secretBytes(byteCount: number): string;
  uuid(): string;
}
