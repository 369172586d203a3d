/**
 * @jest-environment ./testing/stand-ins/voice-agent/jest-environment.js
 */
import { heardAfter, loopSuite, playedOut } from '@voiceplane/stand-ins/voice-agent/loop-suite';

/**
 * Wire checks: for every row of the field table (docs/voice-agent.md) that reaches a provider,
 * what the real plugin sent to the provider's stand-in in a call heard through the audio loop —
 * not the plan object, the bytes on the wire.
 */
const s = loopSuite();

/** A greeting (synthesizer), one customer line (transcriber, LLM) and the reply. */
async function oneTurn(fields: Record<string, unknown>) {
  s.providers.deepgram.transcripts = ['Hello, is anybody there?'];
  s.providers.openai.play({ text: 'Yes.' });
  const call = await s.answered({ initial_message: 'Hi.', ...fields });
  await playedOut(call.ear);
  const hello = await call.customer.say('hello');
  await heardAfter(call.ear, hello.endedAt, 'the reply');
  return call;
}

type VoiceSettings = { stability?: number; similarity_boost?: number; speed?: number; style?: number };
type CartesiaPacket = {
  model_id: string;
  voice: { mode: string; id: string };
  language: string;
  generation_config?: { speed?: number; emotion?: string };
  transcript: string;
};

describe('what reaches the providers', () => {
  it("Deepgram: nova-3 in the assistant's language (language_id), 16 kHz linear16, the key as a token", async () => {
    await oneTurn({ language_id: 5 });
    const [listen] = s.providers.deepgram.connections;
    expect(listen.path).toBe('/v1/listen');
    expect(
      Object.fromEntries(
        ['model', 'language', 'encoding', 'sample_rate', 'channels', 'interim_results'].map((k) => [
          k,
          listen.query.get(k),
        ]),
      ),
    ).toEqual({
      model: 'nova-3',
      language: 'de',
      encoding: 'linear16',
      sample_rate: '16000',
      channels: '1',
      interim_results: 'true',
    });
    expect(listen.headers.authorization).toBe('Token dg-test');
  });

  it('Deepgram: secondary_language_ids switch to the multilingual model language (multi)', async () => {
    await oneTurn({ language_id: 1, secondary_language_ids: [5] });
    expect(s.providers.deepgram.connections[0].query.get('language')).toBe('multi');
  });

  it("ElevenLabs: the catalogue voice's id, language, stability, similarity, speed, and style 0 without emotion", async () => {
    await oneTurn({
      voice_id: 2,
      language_id: 3,
      voice_stability: 0.3,
      voice_similarity: 0.9,
      speech_speed: 1.1,
      tts_emotion_enabled: false,
    });
    const [ws] = s.providers.elevenlabs.connections;
    expect(ws.path).toBe('/v1/text-to-speech/pNInz6obpgDQGcFmaJgB/multi-stream-input');
    expect(ws.query.get('language_code')).toBe('fr');
    expect(ws.headers['xi-api-key']).toBe('el-test');
    const opening = s.providers.elevenlabs
      .messages<{ voice_settings?: VoiceSettings }>()
      .filter((m) => m.voice_settings);
    expect(opening.length).toBeGreaterThanOrEqual(2); // the greeting's context and the reply's
    for (const m of opening)
      expect(m.voice_settings).toEqual({ stability: 0.3, similarity_boost: 0.9, speed: 1.1, style: 0 });
  });

  it("ElevenLabs: with emotion on, no style is sent (the voice's expressive default)", async () => {
    await oneTurn({ voice_id: 1, tts_emotion_enabled: true });
    expect(s.providers.elevenlabs.voiceIds()[0]).toBe('21m00Tcm4TlvDq8ikWAM');
    const opening = s.providers.elevenlabs
      .messages<{ voice_settings?: VoiceSettings }>()
      .find((m) => m.voice_settings)!;
    expect(opening.voice_settings).not.toHaveProperty('style');
  });

  it("Cartesia: the catalogue voice's id, language, speed, and the neutral emotion without emotion", async () => {
    await oneTurn({ voice_id: 3, language_id: 5, speech_speed: 0.8, tts_emotion_enabled: false });
    expect(s.providers.cartesia.connections[0].path).toBe('/tts/websocket');
    expect(s.providers.cartesia.connections[0].headers['x-api-key']).toBe('ca-test');
    const packets = s.providers.cartesia.messages<CartesiaPacket>();
    expect(packets.length).toBeGreaterThan(0);
    for (const p of packets) {
      expect(p.voice).toEqual({ mode: 'id', id: '3f4ade23-6eb4-4279-ab05-6a144947c4d5' });
      expect(p.language).toBe('de');
      expect(p.generation_config).toEqual({ speed: 0.8, emotion: 'neutral' });
    }
  });

  it('Cartesia: with emotion on, no emotion is sent', async () => {
    await oneTurn({ voice_id: 4, language_id: 3, tts_emotion_enabled: true });
    const [p] = s.providers.cartesia.messages<CartesiaPacket>();
    expect(p.voice.id).toBe('a249eaff-1e96-4d2c-b23b-12efa4f66f41');
    expect(p.generation_config).not.toHaveProperty('emotion');
  });

  it("OpenAI: the llm_model_id's model and llm_temperature", async () => {
    await oneTurn({ llm_model_id: 2, llm_temperature: 0.7 });
    expect(s.providers.openai.requests[0]).toEqual(
      expect.objectContaining({ model: 'gpt-4.1', temperature: 0.7, stream: true }),
    );
  });
});
