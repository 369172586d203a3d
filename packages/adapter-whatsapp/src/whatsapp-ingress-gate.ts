import type { ChatappInboundItem, ChatappIngressGate } from '@voiceplane/application';
import { hubSignatureHolds, sameSecret } from './hub-signature';
import { whatsappWebhookItems } from './webhook-items';

export interface WhatsappIngressSecrets {
  /** WHATSAPP_APP_SECRET: the key of `X-Hub-Signature-256`. */
  readonly appSecret: string;
  /** WHATSAPP_VERIFY_TOKEN: what Meta echoes in the subscription handshake. */
  readonly verifyToken: string;
}

/** The WhatsApp Cloud ingress: Meta's handshake and its signed notifications. */
export class WhatsappIngressGate implements ChatappIngressGate {
  readonly provider = 'whatsapp' as const;

  constructor(private readonly secrets: WhatsappIngressSecrets) {}

  answerChallenge(query: Readonly<Record<string, unknown>>): string | null {
    const mode = query['hub.mode'];
    const token = query['hub.verify_token'];
    const challenge = query['hub.challenge'];
    if (mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string' || challenge === '')
      return null;
    return sameSecret(token, this.secrets.verifyToken) ? challenge : null;
  }

  open(rawBody: Buffer, signature: string | null): readonly ChatappInboundItem[] | null {
    if (!hubSignatureHolds(this.secrets.appSecret, rawBody, signature)) return null;
    let payload: unknown;
    try {
      payload = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return [];
    }
    return whatsappWebhookItems(payload);
  }
}
