import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Assistants and what they reference: the shipped reference catalogue (seeded here with stable
 * ids), folders, labels, knowledge bases and scheduling event types.
 *
 * Foreign keys carry the delete rules of the contract: deleting a folder, knowledge base or phone
 * number clears the reference; deleting a tool or label detaches it; deleting an assistant frees
 * its number. An inbound number answers for at most one assistant (partial unique index).
 */
export class Assistants1795334244703 implements MigrationInterface {
  name = 'Assistants1795334244703';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE languages (
        id integer PRIMARY KEY,
        name varchar(64) NOT NULL,
        iso_2 char(2) NOT NULL UNIQUE
      )`);
    await q.query(`
      CREATE TABLE speech_providers (
        id integer PRIMARY KEY,
        name varchar(64) NOT NULL,
        kind varchar(16) NOT NULL CHECK (kind IN ('synthesizer', 'transcriber'))
      )`);
    await q.query(`
      CREATE TABLE ai_models (
        id integer PRIMARY KEY,
        name varchar(64) NOT NULL,
        provider varchar(64) NOT NULL,
        kind varchar(16) NOT NULL CHECK (kind IN ('llm', 'multimodal'))
      )`);
    await q.query(`
      CREATE TABLE voices (
        id integer PRIMARY KEY,
        name varchar(64) NOT NULL,
        language_id integer NULL REFERENCES languages(id),
        gender varchar(16) NOT NULL CHECK (gender IN ('female', 'male', 'neutral')),
        accent varchar(64) NULL,
        age varchar(32) NULL,
        preview_url varchar(2048) NULL,
        synthesizer_provider_id integer NULL REFERENCES speech_providers(id),
        modes text[] NOT NULL
      )`);
    await q.query(`
      INSERT INTO languages (id, name, iso_2) VALUES
        (1, 'English', 'en'), (2, 'Romanian', 'ro'), (3, 'French', 'fr'), (4, 'Spanish', 'es'), (5, 'German', 'de'),
        (6, 'Lithuanian', 'lt'), (7, 'Italian', 'it'), (8, 'Arabic', 'ar'), (9, 'Portuguese', 'pt'), (10, 'Danish', 'da'),
        (11, 'Dutch', 'nl'), (12, 'Polish', 'pl'), (13, 'Finnish', 'fi'), (14, 'Hebrew', 'he')`);
    await q.query(`
      INSERT INTO ai_models (id, name, provider, kind) VALUES
        (1, 'gpt-4o-mini', 'openai', 'llm'), (2, 'gpt-4.1', 'openai', 'llm'), (3, 'gpt-4o-realtime', 'openai', 'multimodal')`);
    await q.query(`
      INSERT INTO speech_providers (id, name, kind) VALUES
        (1, 'elevenlabs', 'synthesizer'), (2, 'cartesia', 'synthesizer'), (3, 'deepgram', 'transcriber')`);
    // No preview audio is hosted by voiceplane, so preview_url stays null rather than point nowhere.
    await q.query(`
      INSERT INTO voices (id, name, language_id, gender, accent, age, preview_url, synthesizer_provider_id, modes) VALUES
        (1, 'Ava', 1, 'female', 'American', 'young', NULL, 1, '{pipeline,dualplex}'),
        (2, 'Noah', 1, 'male', 'American', 'middle_aged', NULL, 1, '{pipeline,dualplex}'),
        (3, 'Lena', 5, 'female', 'German', 'young', NULL, 2, '{pipeline,dualplex}'),
        (4, 'Léa', 3, 'female', 'Parisian French', 'young', NULL, 2, '{pipeline,dualplex}'),
        (5, 'alloy', NULL, 'neutral', NULL, NULL, NULL, NULL, '{multimodal}'),
        (6, 'verse', NULL, 'male', NULL, NULL, NULL, NULL, '{multimodal}')`);

    for (const table of ['folders', 'labels']) {
      await q.query(`
        CREATE TABLE ${table} (
          id bigserial PRIMARY KEY,
          user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          name varchar(255) NOT NULL,
          color varchar(16) NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now()
        )`);
      await q.query(`CREATE UNIQUE INDEX ${table}_user_name_uq ON ${table} (user_id, lower(name))`);
    }
    await q.query(`
      CREATE TABLE knowledge_bases (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name varchar(255) NOT NULL,
        description varchar(1000) NULL,
        status varchar(16) NOT NULL CHECK (status IN ('empty', 'processing', 'active', 'failed')),
        documents_count integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX knowledge_bases_user_idx ON knowledge_bases (user_id, id DESC)`);
    await q.query(`
      CREATE TABLE event_types (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name varchar(255) NOT NULL,
        duration_minutes integer NOT NULL CHECK (duration_minutes BETWEEN 5 AND 480),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX event_types_user_idx ON event_types (user_id, id DESC)`);

    await q.query(`
      CREATE TABLE assistants (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        status varchar(16) NOT NULL DEFAULT 'inactive' CHECK (status IN ('active', 'inactive')),
        compliance_blocked boolean NOT NULL DEFAULT false,
        compliance_reason varchar(500) NULL,
        name varchar(255) NOT NULL,
        type varchar(16) NOT NULL CHECK (type IN ('outbound', 'inbound')),
        mode varchar(16) NOT NULL CHECK (mode IN ('pipeline', 'multimodal', 'dualplex')),
        timezone varchar(64) NOT NULL,
        initial_message text NOT NULL,
        system_prompt text NOT NULL,
        knowledgebase_mode varchar(16) NULL,
        reengagement_prompt text NULL,
        voice_mail_message text NULL,
        endpoint_type varchar(8) NOT NULL,
        ambient_sound varchar(16) NOT NULL,
        webhook_url varchar(2048) NULL,
        conversation_ended_webhook_url varchar(2048) NULL,
        voice_id integer NULL REFERENCES voices(id),
        language_id integer NOT NULL REFERENCES languages(id),
        llm_model_id integer NULL REFERENCES ai_models(id),
        multimodal_model_id integer NULL REFERENCES ai_models(id),
        chat_llm_fallback_id integer NULL REFERENCES ai_models(id),
        knowledgebase_id bigint NULL REFERENCES knowledge_bases(id) ON DELETE SET NULL,
        folder_id bigint NULL REFERENCES folders(id) ON DELETE SET NULL,
        phone_number_id bigint NULL REFERENCES phone_numbers(id) ON DELETE SET NULL,
        synthesizer_provider_id integer NULL REFERENCES speech_providers(id),
        transcriber_provider_id integer NULL REFERENCES speech_providers(id),
        secondary_language_ids integer[] NOT NULL DEFAULT '{}',
        tools jsonb NOT NULL DEFAULT '[]',
        post_call_schema jsonb NOT NULL DEFAULT '[]',
        turn_detection_threshold double precision NULL,
        voice_stability double precision NOT NULL,
        voice_similarity double precision NOT NULL,
        speech_speed double precision NOT NULL,
        llm_temperature double precision NOT NULL,
        max_duration integer NOT NULL,
        max_silence_duration integer NOT NULL,
        max_initial_silence_duration integer NULL,
        ringing_time integer NOT NULL,
        reengagement_interval integer NOT NULL,
        endpoint_sensitivity double precision NOT NULL,
        interrupt_sensitivity double precision NOT NULL,
        min_interrupt_words integer NULL,
        ambient_sound_volume double precision NOT NULL,
        conversation_inactivity_timeout integer NOT NULL,
        tts_emotion_enabled boolean NOT NULL,
        allow_interruptions boolean NOT NULL,
        fillers boolean NOT NULL,
        record boolean NOT NULL,
        enable_noise_cancellation boolean NOT NULL,
        wait_for_customer boolean NOT NULL,
        end_call_on_voicemail boolean NOT NULL,
        is_webhook_active boolean NOT NULL,
        send_webhook_only_on_completed boolean NOT NULL,
        include_recording_in_webhook boolean NOT NULL,
        post_call_evaluation boolean NOT NULL,
        conversation_ended_retrigger boolean NOT NULL,
        filler_config jsonb NULL,
        variables jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX assistants_user_idx ON assistants (user_id, id DESC)`);
    // The outbound list reads this index in id order.
    await q.query(`CREATE INDEX assistants_user_type_idx ON assistants (user_id, type, id)`);
    await q.query(`CREATE INDEX assistants_folder_idx ON assistants (folder_id) WHERE folder_id IS NOT NULL`);
    await q.query(
      `CREATE INDEX assistants_knowledge_base_idx ON assistants (knowledgebase_id) WHERE knowledgebase_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX assistants_phone_number_idx ON assistants (phone_number_id) WHERE phone_number_id IS NOT NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX assistants_inbound_number_uq ON assistants (phone_number_id) WHERE type = 'inbound' AND phone_number_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE assistant_tools (
        assistant_id bigint NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
        tool_id bigint NOT NULL REFERENCES tools(id) ON DELETE CASCADE,
        position smallint NOT NULL,
        PRIMARY KEY (assistant_id, tool_id)
      )`);
    await q.query(`CREATE INDEX assistant_tools_tool_idx ON assistant_tools (tool_id)`);
    await q.query(`
      CREATE TABLE assistant_labels (
        assistant_id bigint NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
        label_id bigint NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
        position smallint NOT NULL,
        PRIMARY KEY (assistant_id, label_id)
      )`);
    await q.query(`CREATE INDEX assistant_labels_label_idx ON assistant_labels (label_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'assistant_labels',
      'assistant_tools',
      'assistants',
      'event_types',
      'knowledge_bases',
      'labels',
      'folders',
      'voices',
      'ai_models',
      'speech_providers',
      'languages',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}
