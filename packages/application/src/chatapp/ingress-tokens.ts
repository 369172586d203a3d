import { token } from '../common';
import type { ChatappIngress } from './chatapp-ingress';
import type { ChatappInbox, ChatappIngressGate } from './ingress-ports';

export const CHATAPP_INGRESS_TOKENS = {
  ChatappInbox: token<ChatappInbox>('ChatappInbox'),
  ChatappIngress: token<ChatappIngress>('ChatappIngress'),
  /** Multi-bound: one gate per provider whose ingress is served. */
  ChatappIngressGate: token<ChatappIngressGate>('ChatappIngressGate'),
} as const;
