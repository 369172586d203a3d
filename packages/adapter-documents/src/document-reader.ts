import { DocumentReader, OutboundHttpClient } from '@voiceplane/application';
import { DocumentSource, Result, err } from '@voiceplane/domain';
import { ReadingThread } from './reading/reading-thread';
import { CrawlOptions, DEFAULT_CRAWL, WebsiteCrawler } from './website-crawler';

/**
 * Turns any document source into passages: the body as sent, an upload by its format, or a
 * website. Everything that grows with the document runs on the reading thread; this side only
 * fetches pages and hands bytes over.
 */
export class ExtractingDocumentReader implements DocumentReader {
  constructor(
    private readonly http: OutboundHttpClient,
    private readonly thread: ReadingThread,
    private readonly crawl: CrawlOptions = DEFAULT_CRAWL,
  ) {}

  /** The thread's: pages of a crawl count while they are parsed. */
  backlog(): number {
    return this.thread.backlog();
  }

  async read(
    source: DocumentSource,
    file: Uint8Array | null,
  ): Promise<Result<{ passages: string[]; sizeBytes: number }, string>> {
    switch (source.type) {
      case 'text':
        return this.thread.passages({ kind: 'text', text: source.content });
      case 'file':
        if (!file) return err('The uploaded file is missing.');
        return this.thread.passages({ kind: 'file', fileKind: source.kind, bytes: file });
      case 'website': {
        // A crawler per document: robots.txt answers are not kept between documents.
        const crawler = new WebsiteCrawler(this.http, this.crawl, (...page) => this.thread.page(...page));
        const read = await crawler.read(source.url, source.links, source.relativeLinksLimit);
        return read.ok ? this.thread.passages({ kind: 'text', text: read.value.text }) : read;
      }
    }
  }
}
