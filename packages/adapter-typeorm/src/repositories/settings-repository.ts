import { SettingsRepository } from '@voiceplane/application';
import { Database } from '../database';
import { SystemSettingRecord } from '../records';

export class TypeormSettingsRepository implements SettingsRepository {
  constructor(private readonly db: Database) {}

  async getOrCreate(key: string, candidate: string): Promise<{ value: string; created: boolean }> {
    // Raw SQL: ON CONFLICT DO NOTHING RETURNING lets instances starting together agree on the first value.
    const inserted = await this.db.query<Pick<SystemSettingRecord, 'value'>>(
      `INSERT INTO system_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING value`,
      [key, candidate],
    );
    if (inserted.length > 0) return { value: inserted[0].value, created: true };
    const existing = await this.db.one<Pick<SystemSettingRecord, 'value'>>(
      `SELECT value FROM system_settings WHERE key = $1`,
      [key],
    );
    return { value: existing!.value, created: false };
  }
}
