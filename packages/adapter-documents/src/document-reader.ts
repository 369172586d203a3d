import { DocumentReader, OutboundHttpClient } from '@voiceplane/application';
import { DocumentSource, Result, err, ok } from '@voiceplane/domain';
import { fileText } from './file-text';
import { CrawlOptions, DEFAULT_CRAWL, WebsiteCrawler } from './website-crawler';

/** Turns any document source into text: the body as sent, an upload by its format, or a website. */
export class ExtractingDocumentReader implements DocumentReader {
  constructor(private readonly http: OutboundHttpClient, private readonly crawl: CrawlOptions = DEFAULT_CRAWL) {}

  async read(source: DocumentSource, file: Uint8Array | null): Promise<Result<{ text: string }, string>> {
    switch (source.type) {
      case 'text':
        return ok({ text: source.content });
      case 'file': {
        if (!file) return err('The uploaded file is missing.');
        const text = await fileText(source.kind, file);
        return text.ok ? ok({ text: text.value }) : text;
      }
      case 'website': {
        // A crawler per document: robots.txt answers are not kept between documents.
        const read = await new WebsiteCrawler(this.http, this.crawl).read(source.url, source.links, source.relativeLinksLimit);
        return read.ok ? ok({ text: read.value.text }) : read;
      }
    }
  }
}
