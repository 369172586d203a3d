import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Chat-app messaging and conversations and the sandbox chat app's
 * own state.
 *
 * A conversation holds the window's two timestamps; whether it is open is computed, never stored.
 * A message (`conversation_messages`) and its delivery record (`chatapp_messages`) are separate
 * rows written together; the message's status is read through its delivery record, so a status
 * change writes one row. `from_allowance` marks template sends the plan's monthly allowance paid
 * for: counting them this month is the allowance used. Sender numbers are unique across accounts,
 * not only per account. The sandbox tables stand for the chat app's side: what it sent (its outbox) and armed faults.
 */
export class Chatapp1795500000000 implements MigrationInterface {
  name = 'Chatapp1795500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE chatapp_senders (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        phone_number varchar(16) NOT NULL,
        display_name varchar(255) NOT NULL,
        status varchar(8) NOT NULL,
        quality_rating varchar(8) NOT NULL,
        messaging_limit integer NULL,
        country_code varchar(2) NOT NULL,
        assistant_id bigint NULL REFERENCES assistants(id) ON DELETE SET NULL,
        calling_enabled boolean NOT NULL,
        status_webhook_url varchar(2048) NULL,
        provider varchar(16) NOT NULL,
        provider_sender_ref varchar(128) NULL,
        provider_config text NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX chatapp_senders_phone_uq ON chatapp_senders (phone_number)`);
    await q.query(`CREATE INDEX chatapp_senders_user_idx ON chatapp_senders (user_id, id)`);
    await q.query(`CREATE INDEX chatapp_senders_ref_idx ON chatapp_senders (provider_sender_ref)`);
    await q.query(`
      CREATE TABLE chatapp_templates (
        id bigserial PRIMARY KEY,
        sender_id bigint NOT NULL REFERENCES chatapp_senders(id) ON DELETE CASCADE,
        name varchar(512) NOT NULL,
        language varchar(8) NOT NULL,
        category varchar(24) NOT NULL,
        status varchar(8) NOT NULL,
        body_text text NOT NULL,
        footer_text varchar(60) NULL,
        variables jsonb NOT NULL,
        rejection_reason text NULL,
        provider_template_ref varchar(128) NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX chatapp_templates_name_uq ON chatapp_templates (sender_id, name, language)`);
    await q.query(`CREATE INDEX chatapp_templates_ref_idx ON chatapp_templates (provider_template_ref)`);
    await q.query(`
      CREATE TABLE conversations (
        id bigserial PRIMARY KEY,
        uuid uuid NOT NULL,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        sender_id bigint NOT NULL REFERENCES chatapp_senders(id) ON DELETE CASCADE,
        assistant_id bigint NULL,
        customer_phone varchar(16) NOT NULL,
        customer_name varchar(255) NULL,
        status varchar(8) NOT NULL,
        ai_enabled boolean NOT NULL,
        ai_disabled_at timestamptz NULL,
        ai_enabled_at timestamptz NULL,
        message_count integer NOT NULL,
        last_message_at timestamptz NULL,
        last_customer_message_at timestamptz NULL,
        last_template_sent_at timestamptz NULL,
        ended_count integer NOT NULL,
        ended_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX conversations_uuid_uq ON conversations (uuid)`);
    await q.query(`CREATE UNIQUE INDEX conversations_customer_uq ON conversations (sender_id, customer_phone)`);
    await q.query(`CREATE INDEX conversations_user_recent_idx ON conversations (user_id, last_message_at, id)`);
    await q.query(`
      CREATE TABLE conversation_messages (
        id bigserial PRIMARY KEY,
        conversation_id bigint NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        direction varchar(8) NOT NULL,
        source varchar(16) NOT NULL,
        type varchar(24) NOT NULL,
        body text NULL,
        media_url varchar(2048) NULL,
        media_type varchar(16) NULL,
        filename varchar(255) NULL,
        template_id bigint NULL,
        status varchar(16) NULL,
        error_code varchar(64) NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX conversation_messages_conversation_idx ON conversation_messages (conversation_id, id)`);
    await q.query(`
      CREATE TABLE chatapp_messages (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        message_id bigint NOT NULL REFERENCES conversation_messages(id) ON DELETE CASCADE,
        sender_id bigint NOT NULL,
        conversation_id bigint NOT NULL,
        direction varchar(8) NOT NULL,
        from_phone varchar(16) NOT NULL,
        to_phone varchar(16) NOT NULL,
        message_sid varchar(34) NOT NULL,
        provider_message_id varchar(255) NULL,
        status varchar(16) NOT NULL,
        error_code varchar(64) NULL,
        error_message varchar(1024) NULL,
        cost numeric(12,4) NOT NULL,
        from_allowance boolean NOT NULL,
        status_history jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX chatapp_messages_sid_uq ON chatapp_messages (message_sid)`);
    await q.query(`CREATE UNIQUE INDEX chatapp_messages_message_uq ON chatapp_messages (message_id)`);
    await q.query(`CREATE INDEX chatapp_messages_provider_idx ON chatapp_messages (provider_message_id)`);
    await q.query(
      `CREATE INDEX chatapp_messages_allowance_idx ON chatapp_messages (user_id, created_at) WHERE from_allowance`,
    );
    await q.query(`
      CREATE TABLE sandbox_chatapp_sent (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        sender_id bigint NOT NULL,
        to_phone varchar(16) NOT NULL,
        type varchar(16) NOT NULL,
        body text NULL,
        media_url varchar(2048) NULL,
        provider_message_id varchar(64) NOT NULL,
        sent_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sandbox_chatapp_sent_user_idx ON sandbox_chatapp_sent (user_id, id)`);
    await q.query(`
      CREATE TABLE sandbox_faults (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        kind varchar(32) NOT NULL,
        target_id bigint NULL,
        remaining integer NOT NULL
      )`);
    await q.query(`CREATE INDEX sandbox_faults_scope_idx ON sandbox_faults (user_id, kind)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'sandbox_faults',
      'sandbox_chatapp_sent',
      'chatapp_messages',
      'conversation_messages',
      'conversations',
      'chatapp_templates',
      'chatapp_senders',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
