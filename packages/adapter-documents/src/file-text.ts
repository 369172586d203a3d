import { FileKind, Result, err, ok } from '@voiceplane/domain';
import type * as HtmlToText from 'html-to-text';
import type Mammoth from 'mammoth';
import type * as PdfParse from 'pdf-parse';

// The parsers are loaded on first use, not at start: together they are a large share of the
// api's module-loading time and most processes never extract a file.
let htmlToTextModule: typeof HtmlToText | undefined;
let mammothModule: typeof Mammoth | undefined;
let pdfParseModule: typeof PdfParse | undefined;
const htmlToText: typeof HtmlToText.convert = (...args) => (htmlToTextModule ??= require('html-to-text') as typeof HtmlToText).convert(...args);
const mammoth = (): typeof Mammoth => (mammothModule ??= require('mammoth') as typeof Mammoth);
const pdfParse = (): typeof PdfParse => (pdfParseModule ??= require('pdf-parse') as typeof PdfParse);

/** Text of an upload in one of the formats a knowledge base takes, or why it has none. */
export async function fileText(kind: FileKind, bytes: Uint8Array): Promise<Result<string, string>> {
  try {
    switch (kind) {
      case 'txt':
      case 'markdown':
        return ok(new TextDecoder('utf-8').decode(bytes));
      case 'html':
        return ok(pageText(new TextDecoder('utf-8').decode(bytes)));
      case 'docx':
        return ok((await mammoth().extractRawText({ buffer: Buffer.from(bytes) })).value);
      case 'pdf':
        return ok(await pdfText(bytes));
    }
  } catch {
    return err(`The ${kind.toUpperCase()} file could not be read; it may be damaged or protected.`);
  }
}

async function pdfText(bytes: Uint8Array): Promise<string> {
  // pdf.js takes ownership of the buffer it is given, so it gets a copy.
  const parser = new (pdfParse().PDFParse)({ data: new Uint8Array(bytes) });
  try {
    return (await parser.getText({ pageJoiner: '' })).text;
  } finally {
    await parser.destroy();
  }
}

/** The readable text of an HTML page: no scripts, styles, navigation chrome or link targets. */
export function pageText(html: string): string {
  return htmlToText(html, {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      { selector: 'nav', format: 'skip' },
      { selector: 'script', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'noscript', format: 'skip' },
    ],
  });
}
