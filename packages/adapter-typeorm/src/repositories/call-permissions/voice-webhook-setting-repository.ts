import { VoiceWebhookSettingRepository } from '@voiceplane/application';
import { Database } from '../../database';
import { VoiceWebhookSettingRecord } from '../../records';

export class TypeormVoiceWebhookSettingRepository implements VoiceWebhookSettingRepository {
  constructor(private readonly db: Database) {}

  async find(userId: number): Promise<string | null> {
    const row = await this.db.one<Pick<VoiceWebhookSettingRecord, 'webhook_url'>>(
      `SELECT webhook_url FROM chatapp_voice_webhooks WHERE user_id = $1`,
      [userId],
    );
    return row?.webhook_url ?? null;
  }

  async save(userId: number, webhookUrl: string | null): Promise<void> {
    if (webhookUrl === null) {
      await this.db.query(`DELETE FROM chatapp_voice_webhooks WHERE user_id = $1`, [userId]);
      return;
    }
    await this.db.query(
      `INSERT INTO chatapp_voice_webhooks (user_id, webhook_url, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (user_id) DO UPDATE SET webhook_url = EXCLUDED.webhook_url, updated_at = now()`,
      [userId, webhookUrl],
    );
  }
}
