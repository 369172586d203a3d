import { readFileSync } from 'node:fs';

/**
 * Audio for the loop: the stand-ins answer with sine bursts (what matters is the timing and the
 * length of the audio, not what it says), the fixtures are 16-bit mono WAV files.
 */

/** Signed 16-bit little-endian PCM: a tone of `ms` milliseconds with short fades so it has no clicks. */
export function sineBurst(sampleRate: number, ms: number, frequency = 440, amplitude = 0.3): Buffer {
  const samples = Math.max(1, Math.round((sampleRate * ms) / 1000));
  const fade = Math.min(Math.round(sampleRate * 0.005), Math.floor(samples / 2));
  const out = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1) {
    const envelope = Math.min(1, i / Math.max(1, fade), (samples - 1 - i) / Math.max(1, fade));
    out.writeInt16LE(
      Math.round(Math.sin((2 * Math.PI * frequency * i) / sampleRate) * amplitude * envelope * 32767),
      i * 2,
    );
  }
  return out;
}

/** Root mean square of 16-bit PCM, 0–1. */
export function rms(pcm: Buffer): number {
  const n = Math.floor(pcm.length / 2);
  if (n === 0) return 0;
  let sum = 0;
  for (let i = 0; i < n; i += 1) {
    const v = pcm.readInt16LE(i * 2) / 32768;
    sum += v * v;
  }
  return Math.sqrt(sum / n);
}

export interface Wav {
  readonly sampleRate: number;
  readonly channels: number;
  readonly samples: Int16Array;
}

/** Reads a PCM WAV file (16-bit); only what the fixtures use. */
export function readWav(path: string): Wav {
  const buf = readFileSync(path);
  if (buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE')
    throw new Error(`${path} is not a WAV file`);
  let offset = 12;
  let sampleRate = 0;
  let channels = 0;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    if (id === 'fmt ') {
      if (buf.readUInt16LE(offset + 8) !== 1 || buf.readUInt16LE(offset + 22) !== 16)
        throw new Error(`${path} is not 16-bit PCM`);
      channels = buf.readUInt16LE(offset + 10);
      sampleRate = buf.readUInt32LE(offset + 12);
    } else if (id === 'data') {
      const bytes = buf.subarray(offset + 8, offset + 8 + size);
      const samples = new Int16Array(bytes.length / 2);
      for (let i = 0; i < samples.length; i += 1) samples[i] = bytes.readInt16LE(i * 2);
      return { sampleRate, channels, samples };
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error(`${path} has no data`);
}
