import {
  DOCUMENT_TEXT_MAX_BYTES,
  DOCUMENT_UNPACKED_MAX_BYTES,
  documentFailureReason,
  FileKind,
  Result,
  err,
  ok,
} from '@voiceplane/domain';
import type * as HtmlToText from 'html-to-text';
import type Mammoth from 'mammoth';
import type * as PdfParse from 'pdf-parse';
import { unpackedSizeWithin } from './reading/zip-bound';

// The parsers are loaded on first use, not at start: together they are a large share of the
// api's module-loading time and most processes never extract a file.
let htmlToTextModule: typeof HtmlToText | undefined;
let mammothModule: typeof Mammoth | undefined;
let pdfParseModule: typeof PdfParse | undefined;
const htmlToText: typeof HtmlToText.convert = (...args) =>
  (htmlToTextModule ??= require('html-to-text') as typeof HtmlToText).convert(...args);
const mammoth = (): typeof Mammoth => (mammothModule ??= require('mammoth') as typeof Mammoth);
const pdfParse = (): typeof PdfParse => (pdfParseModule ??= require('pdf-parse') as typeof PdfParse);

/**
 * Text of an upload in one of the formats a knowledge base takes, or why it has none. A DOCX is
 * refused before its text is built when its parts unpack past the cap; a PDF's text is read page
 * by page and refused once past the text cap. Runs on a reading thread (see ReadingThread).
 */
export async function fileText(kind: FileKind, bytes: Uint8Array): Promise<Result<string, string>> {
  const damaged = err(`The ${kind.toUpperCase()} file could not be read; it may be damaged or protected.`);
  try {
    switch (kind) {
      case 'txt':
      case 'markdown':
        return ok(new TextDecoder('utf-8').decode(bytes));
      case 'html':
        return ok(pageText(new TextDecoder('utf-8').decode(bytes)));
      case 'docx': {
        const unpacked = unpackedSizeWithin(bytes, DOCUMENT_UNPACKED_MAX_BYTES);
        if (unpacked === 'unreadable') return damaged;
        if (unpacked === 'too_large') return err(documentFailureReason({ code: 'unpacked_too_large' }));
        return ok((await mammoth().extractRawText({ buffer: Buffer.from(bytes) })).value);
      }
      case 'pdf':
        return await pdfText(bytes);
    }
  } catch {
    return damaged;
  }
}

async function pdfText(bytes: Uint8Array): Promise<Result<string, string>> {
  // pdf.js takes ownership of the buffer it is given, so it gets a copy.
  const parser = new (pdfParse().PDFParse)({ data: new Uint8Array(bytes) });
  try {
    const pages: string[] = [];
    // Counted in UTF-16 units, which never outnumber the UTF-8 bytes: past the cap in units is past it in bytes.
    let units = 0;
    for (let page = 1, total = 1; page <= total; page++) {
      const read = await parser.getText({ partial: [page], pageJoiner: '' });
      total = read.total;
      pages.push(read.text);
      units += read.text.length;
      if (units > DOCUMENT_TEXT_MAX_BYTES) return err(documentFailureReason({ code: 'text_too_large' }));
    }
    return ok(pages.join('\n\n'));
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
