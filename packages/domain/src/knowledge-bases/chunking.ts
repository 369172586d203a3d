/**
 * Splits extracted text into passages small enough to hand a model a few of them, overlapping so a
 * sentence cut at a boundary is still whole in one of the two neighbours. Cuts prefer a paragraph
 * break, then a sentence end, then a space, within the last fifth of the window.
 */
export interface ChunkOptions {
  readonly size: number;
  readonly overlap: number;
}

export const DEFAULT_CHUNKING: ChunkOptions = { size: 1200, overlap: 200 };

export function chunkText(text: string, options: ChunkOptions = DEFAULT_CHUNKING): string[] {
  const clean = normalizeWhitespace(text);
  if (clean.length === 0) return [];
  if (options.overlap >= options.size) throw new Error('overlap must be smaller than size');
  const chunks: string[] = [];
  let start = 0;
  while (start < clean.length) {
    let end = Math.min(start + options.size, clean.length);
    if (end < clean.length) end = cutPoint(clean, start, end, options.size);
    const piece = clean.slice(start, end).trim();
    if (piece.length > 0) chunks.push(piece);
    if (end >= clean.length) break;
    let next = Math.max(end - options.overlap, start + 1);
    // Start the overlap on a word boundary, not inside a word. Looked for only up to the cut: a text
    // without spaces must not be scanned to its end once per passage.
    const space = clean.slice(next, end).indexOf(' ');
    if (space !== -1) next += space + 1;
    start = next;
  }
  return chunks;
}

// Each cut looks back from the window's end once (no backtracking pattern): the time to cut a text
// grows with its length alone.
function cutPoint(text: string, start: number, end: number, size: number): number {
  const floor = start + Math.floor(size * 0.8);
  const window = text.slice(floor, end);
  const paragraph = window.lastIndexOf('\n\n');
  if (paragraph !== -1) return floor + paragraph + 2;
  for (let i = window.length - 2; i >= 0; i--) {
    if (SENTENCE_END.has(window[i]) && isWhitespace(window[i + 1])) return floor + i + 2;
  }
  for (let i = window.length - 1; i >= 0; i--) {
    if (isWhitespace(window[i])) return floor + i + 1;
  }
  return end;
}

const SENTENCE_END = new Set(['.', '!', '?']);
const WHITESPACE = /\s/;
// Normalised text separates words with a space or a line break; the pattern is asked only about the rarer rest.
const isWhitespace = (ch: string) => ch === ' ' || ch === '\n' || ((ch < '!' || ch > '~') && WHITESPACE.test(ch));

/** Collapses runs of spaces and blank lines the extractors leave, keeping paragraph breaks. */
export function normalizeWhitespace(text: string): string {
  // Each pattern matches only what it changes (never a lone space or line break), so ordinary text is
  // scanned, not rebuilt match by match.
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/ [ \t\f\v\u00a0]+|[\t\f\v\u00a0][ \t\f\v\u00a0]*/g, ' ')
    .replace(/ +\n *|\n +/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * PostgreSQL text-search configurations by the catalogue's ISO 639-1 codes; a language without a
 * stemmer in every supported server version is searched word for word (`simple`).
 */
const TEXT_SEARCH_CONFIGS: Readonly<Record<string, string>> = {
  en: 'english',
  fr: 'french',
  es: 'spanish',
  de: 'german',
  it: 'italian',
  pt: 'portuguese',
  da: 'danish',
  nl: 'dutch',
  fi: 'finnish',
  ro: 'romanian',
  ar: 'arabic',
  lt: 'lithuanian',
};

export function textSearchConfigOf(language: string): string {
  return TEXT_SEARCH_CONFIGS[language.toLowerCase()] ?? 'simple';
}
