import { E164_PATTERN } from '../assistants/built-in-tools';
import { CALLING_CODES, NumberCountry, NUMBER_COUNTRIES } from './countries';

// North American area codes that belong to Canada; every other +1 number of ours is a US one.
const CANADIAN_AREA_CODES = new Set(
  ('204 226 236 249 250 257 263 289 306 343 354 365 367 368 382 403 416 418 428 431 437 438 450 460 468 474 506 ' +
    '514 519 548 579 581 584 587 604 613 639 647 672 683 705 709 742 753 778 780 782 807 819 825 867 873 879 902 905')
    .split(' '),
);

// Longest calling code first, so +358 is not read as +35.
const BY_CODE_LENGTH = [...NUMBER_COUNTRIES].sort((a, b) => CALLING_CODES[b].length - CALLING_CODES[a].length);

/** Which of the number countries an E.164 number belongs to, with its national significant number. */
export function splitNumber(e164: string): { country: NumberCountry; national: string } | null {
  if (!E164_PATTERN.test(e164)) return null;
  const digits = e164.slice(1);
  for (const country of BY_CODE_LENGTH) {
    const code = CALLING_CODES[country];
    if (!digits.startsWith(code)) continue;
    const national = digits.slice(code.length);
    if (code === '1') return { country: CANADIAN_AREA_CODES.has(national.slice(0, 3)) ? 'CA' : 'US', national };
    return { country, national };
  }
  return null;
}

/** Groups `digits` by the given sizes; the last group takes whatever is left. */
function group(digits: string, sizes: number[], separator = ' '): string {
  const parts: string[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  if (at < digits.length) parts[parts.length - 1] += digits.slice(at);
  return parts.join(separator);
}

const GB_TWO_DIGIT_AREAS = ['20', '23', '24', '28', '29'];
const PL_LANDLINE_AREAS = new Set(
  ('12 13 14 15 16 17 18 22 23 24 25 29 32 33 34 41 42 43 44 46 48 52 54 55 56 58 59 61 62 63 65 67 68 71 74 75 ' +
    '76 77 81 82 83 84 85 86 87 89 91 94 95').split(' '),
);
const NL_TWO_DIGIT_AREAS = new Set(
  '10 13 15 20 23 24 26 30 33 35 36 38 40 43 45 46 50 53 55 58 70 71 72 73 74 75 76 77 78 79'.split(' '),
);

const NATIONAL: Record<NumberCountry, (n: string) => string> = {
  US: (n) => `(${n.slice(0, 3)}) ${n.slice(3, 6)}-${n.slice(6)}`,
  CA: (n) => `(${n.slice(0, 3)}) ${n.slice(3, 6)}-${n.slice(6)}`,
  GB: (n) => {
    if (GB_TWO_DIGIT_AREAS.some((a) => n.startsWith(a))) return `0${group(n, [2, 4, 4])}`;
    if (n.startsWith('7')) return `0${group(n, [4, 6])}`;
    if (/^1(1\d|\d1)/.test(n) || /^[389]/.test(n)) return `0${group(n, [3, 3, 4])}`;
    return `0${group(n, [4, 6])}`;
  },
  AU: (n) => (n.startsWith('4') ? `0${group(n, [3, 3, 3])}` : `0${group(n, [1, 4, 4])}`),
  IL: (n) => (/^[57]/.test(n) ? `0${group(n, [2, 3, 4], '-')}` : `0${group(n, [1, 3, 4], '-')}`),
  PL: (n) => (PL_LANDLINE_AREAS.has(n.slice(0, 2)) ? group(n, [2, 3, 2, 2]) : group(n, [3, 3, 3])),
  FI: (n) => {
    const area = /^(4\d|50)/.test(n) ? n.slice(0, 2) : n.slice(0, 1);
    const rest = n.slice(area.length);
    return `0${area} ${group(rest, rest.length > 6 ? [3, 4] : [3, 3])}`;
  },
  NL: (n) => {
    if (n.startsWith('6')) return `06 ${n.slice(1)}`;
    if (NL_TWO_DIGIT_AREAS.has(n.slice(0, 2))) return `0${group(n, [2, 3, 4])}`;
    return `0${group(n, [3, 3, 3])}`;
  },
  DK: (n) => group(n, [2, 2, 2, 2]),
  IT: (n) => {
    if (n.startsWith('3')) return group(n, [3, 3, 4]);
    if (/^0[26]/.test(n)) return group(n, [2, 4, 4]);
    return group(n, [3, 3, 4]);
  },
};

/**
 * The number as people of its country write it (`020 7946 0123`, `(415) 555-0134`) — the
 * `phone_number_formatted` of search results. Numbers outside the ten countries stay in E.164.
 */
export function formatNational(e164: string): string {
  const split = splitNumber(e164);
  return split ? NATIONAL[split.country](split.national) : e164;
}
