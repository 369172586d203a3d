import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks `webhook-signature` value: one `v1,<base64 HMAC-SHA256>` entry per secret, in
 * the order given (newest first), each made by the reference library so a receiver using it (or
 * any port of it) verifies exactly what we send. Its secret rule applies: the `whsec_` prefix is
 * optional, the rest is the base64 key.
 */
export function webhookSignature(
  secrets: readonly string[],
  webhookId: string,
  timestampSeconds: number,
  body: string,
): string {
  if (secrets.length === 0) throw new Error('Signing needs at least one secret.');
  const at = new Date(timestampSeconds * 1000);
  return secrets.map((secret) => new Webhook(secret).sign(webhookId, at, body)).join(' ');
}
