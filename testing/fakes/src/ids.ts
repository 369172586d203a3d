import { Ids } from '@voiceplane/application';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Ids with the shapes of the real ones, numbered from 1 by one counter shared by all three kinds,
 * so every value a test sees is distinct and tells in which order it was made.
 */
export class SequentialIds implements Ids {
  private counter = 0;

  token(prefix: string, length: number): string {
    let n = this.next();
    let digits = '';
    while (n > 0) {
      digits = BASE62[n % 62] + digits;
      n = Math.floor(n / 62);
    }
    if (digits.length > length)
      throw new Error(`SequentialIds: ${length} base62 characters cannot hold token number ${this.counter}`);
    return prefix + digits.padStart(length, '0');
  }

  secretToken(prefix: string, length: number): string {
    return this.token(prefix, length);
  }

  secretBytes(byteCount: number): string {
    const bytes = Buffer.alloc(byteCount);
    let n = this.next();
    for (let i = byteCount - 1; i >= 0 && n > 0; i--) {
      bytes[i] = n % 256;
      n = Math.floor(n / 256);
    }
    return bytes.toString('base64');
  }

  /** A version-4 shaped uuid whose last group is the counter in hex. */
  uuid(): string {
    return `00000000-0000-4000-8000-${this.next().toString(16).padStart(12, '0')}`;
  }

  private next(): number {
    return ++this.counter;
  }
}
