import { bigint, columnCheck, ownedByUser, primaryKey, stampedNow, text, timestamptz, varchar } from './columns';
import { record } from './record';

/** Chat-app call permissions: one row per sender and customer once asked or answered. */

export interface CallPermissionRecord {
  sender_id: string;
  customer_phone: string;
  status: string;
  is_permanent: boolean;
  expires_at: Date | null;
  requested_at: Date | null;
  responded_at: Date | null;
  asks: Date[];
  asks_counted_after: Date | null;
}

export const chatappCallPermissions = record<CallPermissionRecord>({
  name: 'chatapp_call_permissions',
  columns: {
    sender_id: primaryKey('chatapp_call_permissions', bigint()),
    customer_phone: primaryKey('chatapp_call_permissions', varchar(20)),
    status: varchar(16),
    is_permanent: { type: 'boolean', default: false },
    expires_at: timestamptz(true),
    requested_at: timestamptz(true),
    responded_at: timestamptz(true),
    asks: { type: 'timestamptz', array: true, default: () => "'{}'" },
    asks_counted_after: timestamptz(true),
  },
  checks: [
    columnCheck(
      'chatapp_call_permissions',
      'status',
      "status IN ('none', 'pending', 'granted', 'rejected', 'revoked')",
    ),
  ],
});

export interface VoiceWebhookSettingRecord {
  user_id: string;
  webhook_url: string;
  updated_at: Date;
}

/** The account's chat-app voice webhook; no row while none is set. */
export const chatappVoiceWebhooks = record<VoiceWebhookSettingRecord>({
  name: 'chatapp_voice_webhooks',
  columns: {
    user_id: primaryKey('chatapp_voice_webhooks', bigint()),
    webhook_url: text(),
    updated_at: stampedNow(),
  },
  foreignKeys: [ownedByUser('chatapp_voice_webhooks')],
});

export const callPermissionRecords = [chatappCallPermissions, chatappVoiceWebhooks];
