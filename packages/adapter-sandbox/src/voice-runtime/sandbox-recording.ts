/**
 * What the sandbox "records" on an answered call: a short WAV (16-bit PCM, mono, 8 kHz) of two soft
 * tones, made here rather than shipped as a file. Small (about 32 KB), playable by every browser's
 * `<audio>`, and the same bytes every time, so a test can compare what the recording route served.
 */
export const SANDBOX_RECORDING_TYPE = 'audio/wav';
export const SANDBOX_RECORDING_SECONDS = 2;

const RATE = 8_000;

export function sandboxRecordingWav(seconds = SANDBOX_RECORDING_SECONDS): Buffer {
  const samples = Math.round(RATE * seconds);
  const data = samples * 2;
  const wav = Buffer.alloc(44 + data);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + data, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16); // size of the fmt chunk
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(RATE, 24);
  wav.writeUInt32LE(RATE * 2, 28); // bytes per second
  wav.writeUInt16LE(2, 32); // bytes per frame
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(data, 40);
  for (let i = 0; i < samples; i++) {
    // The first half one tone, the second another (an "assistant" and a "customer"), faded in and out against clicks.
    const tone = i < samples / 2 ? 440 : 660;
    const fade = Math.min(1, i / 400, (samples - i) / 400);
    wav.writeInt16LE(Math.round(Math.sin((2 * Math.PI * tone * i) / RATE) * 6_000 * fade), 44 + i * 2);
  }
  return wav;
}
