import { VoiceWebhookSettingRepository } from '@voiceplane/application';

/** Account voice webhooks in memory. */
export class InMemoryVoiceWebhookSettingRepository implements VoiceWebhookSettingRepository {
  private readonly urls = new Map<number, string>();

  async find(userId: number): Promise<string | null> {
    return this.urls.get(userId) ?? null;
  }

  async save(userId: number, webhookUrl: string | null): Promise<void> {
    if (webhookUrl === null) this.urls.delete(userId);
    else this.urls.set(userId, webhookUrl);
  }
}
