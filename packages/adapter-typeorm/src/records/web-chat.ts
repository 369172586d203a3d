import { bigint, boolean, jsonb, numeric, ownedByUser, primaryKey, references, timestamptz, varchar } from './columns';
import { record } from './record';

/** An assistant's embeddable widget: its public key, on/off, the origins that may embed it and its daily spending cap. */
export interface WidgetSettingsRecord {
  assistant_id: string;
  user_id: string;
  widget_key: string;
  enabled: boolean;
  allowed_origins: string[];
  daily_cap: string;
  created_at: Date;
  updated_at: Date;
}

export const widgetSettings = record<WidgetSettingsRecord>({
  name: 'widget_settings',
  columns: {
    assistant_id: primaryKey('widget_settings', bigint()),
    user_id: bigint(),
    widget_key: varchar(64),
    enabled: boolean(),
    allowed_origins: jsonb(),
    daily_cap: numeric(12, 4),
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  foreignKeys: [references('widget_settings', 'assistant_id', 'assistants', 'CASCADE'), ownedByUser('widget_settings')],
  indices: [{ name: 'widget_settings_key_uq', columns: ['widget_key'], unique: true }],
});

export const webChatRecords = [widgetSettings];
