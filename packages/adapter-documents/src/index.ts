export { ExtractingDocumentReader } from './document-reader';
export { WebsiteCrawler, DEFAULT_CRAWL, type CrawlOptions } from './website-crawler';
export { fileText, pageText } from './file-text';
export { ReadingThread, DEFAULT_READING, type ReadingThreadOptions } from './reading/reading-thread';
