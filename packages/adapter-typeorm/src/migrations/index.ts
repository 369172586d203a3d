import { Foundation1763800000000 } from './1763800000000-foundation';
import { SharedReferences1763800001000 } from './1763800001000-shared-references';
import { Assistants1795334244703 } from './1795334244703-assistants';
import { Tools1795334368759 } from './1795334368759-tools';
import { Telephony1795334549220 } from './1795334549220-telephony';
import { EventBackbone1795334367057 } from './1795334367057-event-backbone';
import { Calls1795334793141 } from './1795334793141-calls';
import { OutboxPolling1795337052089 } from './1795337052089-outbox-polling';
import { IdempotencyLease1795400000000 } from './1795400000000-idempotency-lease';
import { Chatapp1795500000000 } from './1795500000000-chatapp';
import { ChatappInbox1795510000000 } from './1795510000000-chatapp-inbox';
import { BillingGateway1795520000000 } from './1795520000000-billing-gateway';
import { RequestFastPath1795530000000 } from './1795530000000-request-fast-path';
import { Automations1795540000000 } from './1795540000000-automations';
import { CallPermissions1795550000000 } from './1795550000000-call-permissions';
import { SealedHookTokens1795630000000 } from './1795630000000-sealed-hook-tokens';
import { UnsettledEvents1795630000001 } from './1795630000001-unsettled-events';
import { AutomationRunLeases1795640000000 } from './1795640000000-automation-run-leases';
import { TopUpReconciliation1795640001000 } from './1795640001000-top-up-reconciliation';
import { ChatappSenderAccount1795650000000 } from './1795650000000-chatapp-sender-account';
import { ChatappMedia1795650001000 } from './1795650001000-chatapp-media';
import { ChatappCallingLine1795720000000 } from './1795720000000-chatapp-calling-line';
import { ChatappMediaDeletions1795720001000 } from './1795720001000-chatapp-media-deletions';
import { CheckoutReconciliation1795730000000 } from './1795730000000-checkout-reconciliation';
import { ToolHookEndpoints1795740000000 } from './1795740000000-tool-hook-endpoints';
import { KnowledgeBaseDocuments1795750000000 } from './1795750000000-knowledge-base-documents';
import { ChatappSendReservations1795760000000 } from './1795760000000-chatapp-send-reservations';
import { ChatappCallReports1795810000000 } from './1795810000000-chatapp-call-reports';
import { PhoneNumberDeleteIntent1795840000000 } from './1795840000000-phone-number-delete-intent';
import { KnowledgeSearchLog1795850000000 } from './1795850000000-knowledge-search-log';
import { KnowledgeEmbeddings1795850001000 } from './1795850001000-knowledge-embeddings';
import { KnowledgeVectorSearch1795890000000 } from './1795890000000-knowledge-vector-search';
import { PhoneNumberDeleteOnce1795940000000 } from './1795940000000-phone-number-delete-once';
import { Campaigns1795960000000 } from './1795960000000-campaigns';
import { WebChat1795961000000 } from './1795961000000-web-chat';
import { WebWidget1795961001000 } from './1795961001000-web-widget';
import { CallAnalyticsIndexes1795990000000 } from './1795990000000-call-analytics-indexes';
import { AssistantInboundWebhook1796000000000 } from './1796000000000-assistant-inbound-webhook';
import { Sms1796010000000 } from './1796010000000-sms';
import { DoNotCall1796012000000 } from './1796012000000-do-not-call';
import { LeadTimezones1796012001000 } from './1796012001000-lead-timezones';
import { CallDailyRollups1796040000000 } from './1796040000000-call-daily-rollups';
import { AccountEventStore1796050000000 } from './1796050000000-account-event-store';

/**
 * Every migration, in order. Append new ones at the end (one line each); never edit one that
 * has shipped. File names start with a Unix-millisecond timestamp.
 */
export const migrations = [
  Foundation1763800000000,
  SharedReferences1763800001000,
  Assistants1795334244703,
  Tools1795334368759,
  Telephony1795334549220,
  EventBackbone1795334367057,
  Calls1795334793141,
  OutboxPolling1795337052089,
  IdempotencyLease1795400000000,
  Chatapp1795500000000,
  ChatappInbox1795510000000,
  BillingGateway1795520000000,
  RequestFastPath1795530000000,
  Automations1795540000000,
  CallPermissions1795550000000,
  SealedHookTokens1795630000000,
  UnsettledEvents1795630000001,
  AutomationRunLeases1795640000000,
  TopUpReconciliation1795640001000,
  ChatappSenderAccount1795650000000,
  ChatappMedia1795650001000,
  ChatappCallingLine1795720000000,
  ChatappMediaDeletions1795720001000,
  CheckoutReconciliation1795730000000,
  ToolHookEndpoints1795740000000,
  KnowledgeBaseDocuments1795750000000,
  ChatappSendReservations1795760000000,
  ChatappCallReports1795810000000,
  PhoneNumberDeleteIntent1795840000000,
  KnowledgeSearchLog1795850000000,
  KnowledgeEmbeddings1795850001000,
  KnowledgeVectorSearch1795890000000,
  PhoneNumberDeleteOnce1795940000000,
  Campaigns1795960000000,
  WebChat1795961000000,
  WebWidget1795961001000,
  CallAnalyticsIndexes1795990000000,
  AssistantInboundWebhook1796000000000,
  Sms1796010000000,
  DoNotCall1796012000000,
  LeadTimezones1796012001000,
  CallDailyRollups1796040000000,
  AccountEventStore1796050000000,
];
