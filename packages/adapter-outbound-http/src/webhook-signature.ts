import { createHmac } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/**
 * Standard Webhooks `webhook-signature` value: one `v1,<base64 HMAC-SHA256>` entry
 * per secret, in the order given (newest first), over `{id}.{timestamp}.{body}`.
 */
export function webhookSignature(secrets: readonly string[], webhookId: string, timestampSeconds: number, body: string): string {
  if (secrets.length === 0) throw new Error('Signing needs at least one secret.');
  const signedContent = `${webhookId}.${timestampSeconds}.${body}`;
  return secrets
    .map((secret) => `v1,${createHmac('sha256', signingKey(secret)).update(signedContent).digest('base64')}`)
    .join(' ');
}

function signingKey(secret: string): Buffer {
  // Same rule as the reference library: the prefix is optional, the rest is the base64 key.
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}
