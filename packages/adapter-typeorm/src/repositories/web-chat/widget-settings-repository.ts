import { WidgetSettings } from '@voiceplane/domain';
import { WidgetSettingsRepository } from '@voiceplane/application';
import { Database } from '../../database';
import type { WidgetSettingsRecord } from '../../records';
import { num } from '../rows';

const COLUMNS = 'assistant_id, user_id, widget_key, enabled, allowed_origins, daily_cap, created_at, updated_at';

const toSettings = (r: WidgetSettingsRecord): WidgetSettings => ({
  assistantId: num(r.assistant_id),
  userId: num(r.user_id),
  widgetKey: r.widget_key,
  enabled: r.enabled,
  allowedOrigins: r.allowed_origins,
  dailyCap: Number(r.daily_cap),
});

export class TypeormWidgetSettingsRepository implements WidgetSettingsRepository {
  constructor(private readonly db: Database) {}

  async find(userId: number, assistantId: number): Promise<WidgetSettings | null> {
    const row = await this.db.one<WidgetSettingsRecord>(
      `SELECT ${COLUMNS} FROM widget_settings WHERE assistant_id = $1 AND user_id = $2`,
      [assistantId, userId],
    );
    return row === null ? null : toSettings(row);
  }

  async findByKey(widgetKey: string): Promise<WidgetSettings | null> {
    const row = await this.db.one<WidgetSettingsRecord>(
      `SELECT ${COLUMNS} FROM widget_settings WHERE widget_key = $1`,
      [widgetKey],
    );
    return row === null ? null : toSettings(row);
  }

  async save(s: WidgetSettings, now: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO widget_settings (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
       ON CONFLICT (assistant_id) DO UPDATE SET widget_key = $3, enabled = $4, allowed_origins = $5, daily_cap = $6, updated_at = $7`,
      [s.assistantId, s.userId, s.widgetKey, s.enabled, JSON.stringify(s.allowedOrigins), s.dailyCap, now],
    );
  }
}
