import { chunkText, normalizeWhitespace, textSearchConfigOf } from './chunking';
import { documentTypeOf, fileKindOf } from './documents';

describe('passages of a document', () => {
  it('keeps a short text whole', () => {
    expect(chunkText('  One line.\r\n\r\n\r\nTwo  lines. ')).toEqual(['One line.\n\nTwo lines.']);
    expect(chunkText(' \n ')).toEqual([]);
  });

  it('cuts a long text at sentence ends into passages that overlap, losing no word', () => {
    const sentences = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} says something useful.`);
    const chunks = chunkText(sentences.join(' '), { size: 200, overlap: 60 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(200);
    for (const c of chunks.slice(0, -1)) expect(c).toMatch(/\.$/);
    // Each passage starts with words the one before ends with.
    for (let i = 1; i < chunks.length; i++) expect(chunks[i - 1]).toContain(chunks[i].split(' ').slice(0, 3).join(' '));
    for (const s of sentences) expect(chunks.some((c) => c.includes(s))).toBe(true);
  });

  it('refuses an overlap as large as the passage', () => {
    expect(() => chunkText('abc def', { size: 10, overlap: 10 })).toThrow();
  });

  it('normalises whitespace but keeps paragraph breaks', () => {
    expect(normalizeWhitespace('a \t b\n\n\n\nc\u00a0d')).toBe('a b\n\nc d');
  });

  it('searches a language with its stemmer, or word for word', () => {
    expect(textSearchConfigOf('DE')).toBe('german');
    expect(textSearchConfigOf('he')).toBe('simple');
  });

  it("reads the clients' type names and file formats", () => {
    expect(['text', 'url', 'links', 'website', 'pdf', 'Docx', 'video'].map(documentTypeOf)).toEqual([
      'text',
      'website',
      'website',
      'website',
      'file',
      'file',
      null,
    ]);
    expect(fileKindOf('Price List.PDF', null)).toBe('pdf');
    expect(fileKindOf('upload', 'text/markdown; charset=utf-8')).toBe('markdown');
    expect(fileKindOf('tool.exe', 'application/octet-stream')).toBeNull();
  });
});
