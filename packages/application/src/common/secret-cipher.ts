import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts what must be read back in plain text (SIP passwords, chat-app provider tokens, connection
 * credentials, stored idempotent answers): AES-256-GCM under a
 * deployment key, stored as `v1.<base64url(iv | tag | ciphertext)>`. The key text comes from
 * configuration or is generated once and kept in the settings table; it is hashed to 32 bytes so
 * any sufficiently long string works.
 */
export class SecretCipher {
  private key: Promise<Buffer> | null = null;

  constructor(private readonly keySource: () => Promise<string>) {}

  private keyBytes(): Promise<Buffer> {
    if (!this.key) {
      const pending = this.keySource().then((text) => createHash('sha256').update(text, 'utf8').digest());
      // A failed lookup must not be remembered: the next call asks again.
      pending.catch(() => {
        if (this.key === pending) this.key = null;
      });
      this.key = pending;
    }
    return this.key;
  }

  async encrypt(plain: string): Promise<string> {
    const key = await this.keyBytes();
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  async decrypt(sealed: string): Promise<string> {
    const [version, payload] = sealed.split('.', 2);
    if (version !== VERSION || !payload) throw new Error('Unrecognised secret format');
    const raw = Buffer.from(payload, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', await this.keyBytes(), raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
