import type { WebSocket } from 'ws';
import { sineBurst } from './pcm';
import { send, sleep, WebSocketStandIn, type Connection } from './stand-in';

/** Spoken length of a text: a steady pace, so the audio lasts as long as the words would. */
export const SPEECH_MS_PER_CHAR = 35;

/** One synthesis: the first audio waits `latencyMs`, later text of the same context follows in order. */
class Context {
  private chain: Promise<void>;
  constructor(latencyMs: number) {
    this.chain = sleep(latencyMs);
  }
  then(step: () => Promise<void> | void): void {
    this.chain = this.chain.then(step).catch(() => undefined);
  }
}

/**
 * ElevenLabs' multi-context stream-input websocket (`/v1/text-to-speech/{voice}/multi-stream-input`)
 * as LiveKit's ElevenLabs plugin speaks it: per context an opening packet with `voice_settings`,
 * text packets (`flush` at sentence ends), then `close_context`. Each text is answered with base64
 * PCM in the query's `output_format` (a sine burst as long as the text would take to say) and
 * character alignment; the closed context with `isFinal`.
 */
export class ElevenLabsStandIn extends WebSocketStandIn {
  private readonly contexts = new Map<string, Context>();

  static async start(): Promise<ElevenLabsStandIn> {
    const stub = new ElevenLabsStandIn();
    await stub.listen('http', '/v1');
    return stub;
  }

  /** The voice id each connection was opened for (the path), in order. */
  voiceIds(): string[] {
    return this.connections.map((c) => decodeURIComponent(c.path.split('/')[3] ?? ''));
  }

  protected closesOn(message: unknown): boolean {
    const m = message as { text?: string };
    return typeof m?.text === 'string' && m.text.trim() !== '';
  }

  protected onMessage(ws: WebSocket, connection: Connection, message: unknown): void {
    const m = message as { text?: string; context_id?: string; close_context?: boolean; flush?: boolean };
    if (!m || typeof m !== 'object' || !m.context_id) return;
    const id = m.context_id;
    let ctx = this.contexts.get(id);
    if (!ctx) {
      ctx = new Context(this.latencyMs);
      this.contexts.set(id, ctx);
    }
    const sampleRate = Number((connection.query.get('output_format') ?? 'pcm_22050').split('_')[1]);
    const text = m.text;
    if (typeof text === 'string' && text.trim() !== '') {
      ctx.then(() => {
        const ms = text.length * SPEECH_MS_PER_CHAR;
        const chars = [...text];
        send(ws, {
          audio: sineBurst(sampleRate, ms, 330).toString('base64'),
          contextId: id,
          isFinal: false,
          normalizedAlignment: {
            chars,
            charStartTimesMs: chars.map((_, i) => i * SPEECH_MS_PER_CHAR),
            charDurationsMs: chars.map(() => SPEECH_MS_PER_CHAR),
          },
        });
      });
    }
    if (m.close_context) {
      ctx.then(() => {
        send(ws, { contextId: id, isFinal: true });
        this.contexts.delete(id);
      });
    }
  }
}

/**
 * Cartesia's TTS websocket (`/tts/websocket`, `X-API-Key` and `Cartesia-Version` headers) as
 * LiveKit's Cartesia plugin speaks it: one JSON packet per sentence with the model, voice,
 * output format, language and `generation_config` (speed, emotion), `continue: false` to end.
 * Answered with `chunk` messages of base64 PCM at the requested rate, then `done`.
 */
export class CartesiaStandIn extends WebSocketStandIn {
  private readonly contexts = new Map<string, Context>();

  static async start(): Promise<CartesiaStandIn> {
    const stub = new CartesiaStandIn();
    await stub.listen('http');
    return stub;
  }

  protected closesOn(message: unknown): boolean {
    const m = message as { transcript?: string };
    return typeof m?.transcript === 'string' && m.transcript.trim() !== '';
  }

  protected onMessage(ws: WebSocket, _connection: Connection, message: unknown): void {
    const m = message as {
      transcript?: string;
      context_id?: string;
      continue?: boolean;
      output_format?: { sample_rate?: number };
    };
    if (!m || typeof m !== 'object' || !m.context_id) return;
    const id = m.context_id;
    let ctx = this.contexts.get(id);
    if (!ctx) {
      ctx = new Context(this.latencyMs);
      this.contexts.set(id, ctx);
    }
    const sampleRate = m.output_format?.sample_rate ?? 24000;
    const text = m.transcript ?? '';
    if (text.trim() !== '') {
      ctx.then(() =>
        send(ws, {
          type: 'chunk',
          data: sineBurst(sampleRate, text.length * SPEECH_MS_PER_CHAR, 262).toString('base64'),
          done: false,
          status_code: 206,
          step_time: 1,
          context_id: id,
        }),
      );
    }
    if (m.continue === false) {
      ctx.then(() => {
        send(ws, { type: 'done', done: true, status_code: 200, context_id: id });
        this.contexts.delete(id);
      });
    }
  }
}
