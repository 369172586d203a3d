import { randomBytes, randomUUID } from 'node:crypto';
import { Ids } from './ports/ids';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random bytes are drawn from the CSPRNG this many at a time (one system call per block, not per token). */
const POOL_BYTES = 4_096;

export class CryptoIds implements Ids {
  private pool = Buffer.alloc(0);
  private offset = 0;

  token(prefix: string, length: number): string {
    return base62(prefix, length, () => this.nextByte());
  }

  /** Nothing of a secret stays behind in a buffer the process keeps. */
  secretToken(prefix: string, length: number): string {
    let bytes = randomBytes(length + 8);
    let i = 0;
    return base62(prefix, length, () => {
      if (i === bytes.length) {
        bytes = randomBytes(8);
        i = 0;
      }
      return bytes[i++];
    });
  }

  /**
   * Identifiers (request ids, message sids, provider refs) take their bytes from a block drawn
   * from the CSPRNG ahead of time, as `randomUUID` does with its own cache; each byte is used once.
   * Secrets (`secretBytes`) are drawn fresh.
   */
  private nextByte(): number {
    if (this.offset >= this.pool.length) {
      this.pool = randomBytes(POOL_BYTES);
      this.offset = 0;
    }
    return this.pool[this.offset++];
  }

  secretBytes(byteCount: number): string {
    return randomBytes(byteCount).toString('base64');
  }

  uuid(): string {
    return randomUUID();
  }
}

/** `prefix` + `length` base62 characters; bytes ≥ 248 are discarded so every character is uniform. */
function base62(prefix: string, length: number, nextByte: () => number): string {
  let out = prefix;
  while (out.length < prefix.length + length) {
    const byte = nextByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}
