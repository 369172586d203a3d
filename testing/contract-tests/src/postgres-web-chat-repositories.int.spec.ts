import {
  TypeormConversationRepository,
  TypeormWebChatRepository,
  TypeormWidgetSettingsRepository,
} from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { insertUser } from './postgres-fixtures';
import { webChatRepositoriesContract } from './web-chat-repositories.contract';

const database = useTestDatabase();

webChatRepositoriesContract('PostgreSQL', async () => {
  const db = database();
  const users = [await insertUser(db), await insertUser(db)] as const;
  const assistant = async (userId: number) =>
    Number(
      (
        await db.query<{ id: string }>(
          `INSERT INTO assistants (user_id, name, type, mode, timezone, initial_message, system_prompt, endpoint_type, ambient_sound, language_id,
       voice_stability, voice_similarity, speech_speed, llm_temperature, max_duration, max_silence_duration, ringing_time, reengagement_interval,
       endpoint_sensitivity, interrupt_sensitivity, ambient_sound_volume, conversation_inactivity_timeout, tts_emotion_enabled, allow_interruptions,
       fillers, record, enable_noise_cancellation, wait_for_customer, end_call_on_voicemail, is_webhook_active, send_webhook_only_on_completed,
       include_recording_in_webhook, post_call_evaluation, conversation_ended_retrigger)
     VALUES ($1, 'A', 'outbound', 'pipeline', 'UTC', '', '', 'vad', 'off', (SELECT min(id) FROM languages),
       0.5, 0.5, 1, 0.1, 600, 30, 30, 5, 0.5, 0.5, 0.2, 30, false, true, false, false, false, false, false, false, false, false, false, false) RETURNING id`,
          [userId],
        )
      )[0].id,
    );
  return {
    conversations: new TypeormConversationRepository(db),
    chats: new TypeormWebChatRepository(db),
    settings: new TypeormWidgetSettingsRepository(db),
    users,
    assistants: [await assistant(users[0]), await assistant(users[1])],
  };
});
