import type { WebSocket } from 'ws';
import { rms } from './pcm';
import { send, WebSocketStandIn, type Connection } from './stand-in';

/**
 * Deepgram's live transcription websocket (`/v1/listen`) as LiveKit's Deepgram plugin speaks it:
 * linear16 audio in binary messages, `KeepAlive` / `Finalize` / `CloseStream` as JSON, answered
 * with `Results` (interim ones while the customer speaks, then one with `is_final` and
 * `speech_final`). Speech is found by the audio's energy: an utterance ends after `endSilenceMs` of
 * quiet audio (or none at all: the plugin stops sending a second after the last voiced frame).
 * The n-th utterance heard is transcribed as `transcripts[n]`; its final result goes out
 * `latencyMs` after the utterance ended.
 */
export class DeepgramStandIn extends WebSocketStandIn {
  transcripts: string[] = [];
  /** Utterances heard so far, with the times their speech started and ended (stand-in clock). */
  readonly utterances: {
    readonly transcript: string;
    readonly startedAt: number;
    readonly endedAt: number;
    readonly finalAt?: number;
  }[] = [];
  endSilenceMs = 150;
  private counter = 0;

  static async start(): Promise<DeepgramStandIn> {
    const stub = new DeepgramStandIn();
    await stub.listen('ws');
    return stub;
  }

  override reset(): void {
    super.reset();
    this.transcripts = [];
    this.utterances.length = 0;
    this.counter = 0;
  }

  protected closesOn(message: unknown): boolean {
    return typeof message === 'number';
  }

  private readonly state = new WeakMap<WebSocket, Utterance>();

  protected onMessage(ws: WebSocket, _connection: Connection, message: unknown): void {
    const u = this.state.get(ws);
    const type = typeof message === 'object' && message !== null ? (message as { type?: string }).type : undefined;
    if ((type === 'Finalize' || type === 'CloseStream') && u?.speaking) this.endUtterance(ws, u);
    if (type === 'CloseStream') ws.close(1000);
  }

  /** The audio itself (the log keeps only its length). */
  protected override onOpen(ws: WebSocket, connection: Connection): void {
    const sampleRate = Number(connection.query.get('sample_rate') ?? 16000);
    ws.on('message', (data, isBinary) => {
      if (!isBinary || this.failure !== null) return;
      const u = this.state.get(ws) ?? {
        speaking: false,
        voicedMs: 0,
        quietMs: 0,
        startedAt: 0,
        lastVoiceAt: 0,
        interimWords: 0,
        timer: null,
      };
      this.state.set(ws, u);
      const pcm = data as Buffer;
      const ms = (pcm.length / 2 / sampleRate) * 1000;
      const now = Date.now();
      if (rms(pcm) > 0.01) {
        if (!u.speaking) {
          Object.assign(u, { speaking: true, voicedMs: 0, quietMs: 0, startedAt: now - ms, interimWords: 0 });
          send(ws, { type: 'SpeechStarted', channel: [0], timestamp: 0 });
        }
        u.voicedMs += ms;
        u.quietMs = 0;
        u.lastVoiceAt = now;
        this.armQuietTimer(ws, u);
        this.interim(ws, u);
      } else if (u.speaking) {
        u.quietMs += ms;
        if (u.quietMs >= this.endSilenceMs) this.endUtterance(ws, u);
      }
    });
  }

  private armQuietTimer(ws: WebSocket, u: Utterance): void {
    if (u.timer) clearTimeout(u.timer);
    // No audio at all after speech (the plugin's energy filter stopped sending): the speech ended.
    u.timer = setTimeout(() => u.speaking && this.endUtterance(ws, u), this.endSilenceMs + 150);
  }

  /** One more word of the coming transcript every 300 ms of speech, as interim results. */
  private interim(ws: WebSocket, u: Utterance): void {
    const words = this.words(this.counter);
    const due = Math.min(words.length, Math.floor(u.voicedMs / 300));
    if (due <= u.interimWords) return;
    u.interimWords = due;
    send(
      ws,
      results(words.slice(0, due).join(' '), {
        isFinal: false,
        speechFinal: false,
        start: 0,
        duration: u.voicedMs / 1000,
      }),
    );
  }

  private endUtterance(ws: WebSocket, u: Utterance): void {
    if (u.timer) clearTimeout(u.timer);
    u.timer = null;
    u.speaking = false;
    const transcript = this.transcripts[this.counter] ?? '';
    this.counter += 1;
    const record = { transcript, startedAt: u.startedAt, endedAt: u.lastVoiceAt };
    this.utterances.push(record);
    const latency = this.latencyMs;
    setTimeout(() => {
      if (this.failure !== null) return;
      Object.assign(record, { finalAt: Date.now() });
      send(ws, results(transcript, { isFinal: true, speechFinal: true, start: 0, duration: u.voicedMs / 1000 }));
    }, latency);
  }

  private words(n: number): string[] {
    return (this.transcripts[n] ?? '').split(/\s+/).filter(Boolean);
  }
}

interface Utterance {
  speaking: boolean;
  voicedMs: number;
  quietMs: number;
  startedAt: number;
  lastVoiceAt: number;
  interimWords: number;
  timer: NodeJS.Timeout | null;
}

let requestCounter = 0;

function results(transcript: string, o: { isFinal: boolean; speechFinal: boolean; start: number; duration: number }) {
  const words = transcript.split(/\s+/).filter(Boolean);
  const step = words.length > 0 ? o.duration / words.length : 0;
  requestCounter += 1;
  return {
    type: 'Results',
    channel_index: [0, 1],
    duration: o.duration,
    start: o.start,
    is_final: o.isFinal,
    speech_final: o.speechFinal,
    from_finalize: false,
    channel: {
      alternatives: [
        {
          transcript,
          confidence: 0.98,
          words: words.map((w, i) => ({
            word: w.toLowerCase().replace(/[^\p{L}\p{N}-]/gu, ''),
            punctuated_word: w,
            start: o.start + i * step,
            end: o.start + (i + 1) * step,
            confidence: 0.98,
          })),
        },
      ],
    },
    metadata: {
      request_id: `standin-${requestCounter}`,
      model_info: { name: 'stand-in', version: '0', arch: 'stand-in' },
      model_uuid: 'stand-in',
    },
  };
}
