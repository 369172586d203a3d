import { randomBytes, randomUUID } from 'node:crypto';
import { Ids } from './ports/ids';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export class CryptoIds implements Ids {
  /** One CSPRNG call per token; bytes ≥ 248 are discarded so every character is uniform. */
  token(prefix: string, length: number): string {
    let out = prefix;
    while (out.length < prefix.length + length) {
      for (const byte of randomBytes(length + 8)) {
        if (byte < 248) out += BASE62[byte % 62];
        if (out.length === prefix.length + length) break;
      }
    }
    return out;
  }

  secretBytes(byteCount: number): string {
    return randomBytes(byteCount).toString('base64');
  }

  uuid(): string {
    return randomUUID();
  }
}
