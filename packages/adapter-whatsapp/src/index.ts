export { WhatsappCloudProvider, DEFAULT_GRAPH_BASE_URL, type WhatsappCloudOptions } from './whatsapp-cloud-provider';
export { WhatsappIngressGate, type WhatsappIngressSecrets } from './whatsapp-ingress-gate';
export { whatsappWebhookItems } from './webhook-items';
export { hubSignatureHolds, hubSignatureOf } from './hub-signature';
