import { docxWithParagraphs, pdfWithText } from '../test-support/fixtures';
import { fileText } from './file-text';

const text = async (...args: Parameters<typeof fileText>) => {
  const r = await fileText(...args);
  if (!r.ok) throw new Error(r.error);
  return r.value.trim();
};

describe('text of an uploaded file', () => {
  it('reads the text layer of a PDF', async () => {
    expect(await text('pdf', pdfWithText('Refunds are paid within 14 days.'))).toBe('Refunds are paid within 14 days.');
  });

  it('reads the paragraphs of a Word document', async () => {
    expect(await text('docx', await docxWithParagraphs(['Opening hours', 'Monday to Friday, 9 to 18.']))).toBe(
      'Opening hours\n\nMonday to Friday, 9 to 18.',
    );
  });

  it('reads plain text and Markdown as UTF-8', async () => {
    expect(await text('txt', Buffer.from('Prix : 12 €'))).toBe('Prix : 12 €');
    expect(await text('markdown', Buffer.from('# Prices\n\n- Basic: 10 EUR'))).toBe('# Prices\n\n- Basic: 10 EUR');
  });

  it('reads the words of an HTML page without scripts, styles or link targets', async () => {
    const html =
      '<html><head><style>p{color:red}</style><script>alert(1)</script></head><body><nav>Home | About</nav><h1>Returns</h1><p>Send it back within <a href="/x">30 days</a>.</p></body></html>';
    const got = await text('html', Buffer.from(html));
    expect(got).toContain('RETURNS');
    expect(got).toContain('Send it back within 30 days.');
    expect(got).not.toMatch(/alert|color|\/x|Home/);
  });

  it('says so when a file cannot be read', async () => {
    expect(await fileText('pdf', Buffer.from('not a pdf'))).toEqual({
      ok: false,
      error: 'The PDF file could not be read; it may be damaged or protected.',
    });
    expect(await fileText('docx', Buffer.from('not a zip'))).toEqual({
      ok: false,
      error: 'The DOCX file could not be read; it may be damaged or protected.',
    });
  });
});
