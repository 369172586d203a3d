/**
 * How an SMS body is split into the segments carriers bill (3GPP TS 23.038 / 23.040): a body
 * written only in the GSM 03.38 alphabet travels as 7-bit septets, 160 in one message or 153 per
 * part once a user-data header for reassembly is needed; anything else travels as UCS-2, 70 UTF-16
 * code units in one message or 67 per part. Characters of the GSM extension table are sent as an
 * escape plus the character, so they cost two septets, and neither an escaped pair nor a surrogate
 * pair is ever split across two parts (the part ends early instead).
 */

export type SmsEncoding = 'gsm7' | 'ucs2';

export interface SmsSegmentation {
  readonly encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) of the whole body. */
  readonly units: number;
  /** Billed parts; an empty body still goes out as one. */
  readonly segments: number;
}

const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '\f^{}\\[~]|€';

const BASIC = new Set(GSM7_BASIC);
const EXTENSION = new Set(GSM7_EXTENSION);

export const SMS_LIMITS = {
  gsm7: { single: 160, part: 153 },
  ucs2: { single: 70, part: 67 },
} as const;

/** Septets of one character, or null when the GSM alphabet does not have it. */
function septets(ch: string): 1 | 2 | null {
  if (BASIC.has(ch)) return 1;
  if (EXTENSION.has(ch)) return 2;
  return null;
}

/** Splits `body` as a carrier would bill it. */
export function smsSegments(body: string): SmsSegmentation {
  const characters = [...body];
  const gsm = characters.map(septets);
  if (gsm.every((n) => n !== null)) return split('gsm7', gsm as number[]);
  // UCS-2: a character outside the basic plane is a surrogate pair, two code units kept together.
  return split(
    'ucs2',
    characters.map((ch) => ch.length),
  );
}

/** Packs indivisible widths into parts: one message when all fit, else parts of the multipart size. */
function split(encoding: SmsEncoding, widths: readonly number[]): SmsSegmentation {
  const units = widths.reduce((sum, w) => sum + w, 0);
  const { single, part } = SMS_LIMITS[encoding];
  if (units <= single) return { encoding, units, segments: 1 };
  let segments = 1;
  let used = 0;
  for (const w of widths) {
    if (used + w > part) {
      segments += 1;
      used = 0;
    }
    used += w;
  }
  return { encoding, units, segments };
}
