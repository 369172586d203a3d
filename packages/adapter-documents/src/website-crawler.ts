import { OutboundHttpClient, OutboundResponse } from '@voiceplane/application';
import { DOCUMENT_TEXT_MAX_BYTES, documentFailureReason, Result, err, ok } from '@voiceplane/domain';
import robotsParser from 'robots-parser';
import { PageParser, parsePage, withoutFragment } from './reading/page';

export interface CrawlOptions {
  readonly userAgent: string;
  readonly timeoutMs: number;
  readonly maxPageBytes: number;
  readonly maxRedirects: number;
}

export const DEFAULT_CRAWL: CrawlOptions = {
  userAgent: 'voiceplane-knowledge',
  timeoutMs: 10_000,
  maxPageBytes: 2 * 1024 * 1024,
  maxRedirects: 5,
};

type Robots = ReturnType<typeof robotsParser> | null;

/**
 * Reads a website for a knowledge base through the guarded client, so every request — each
 * redirect hop included — passes the outbound policy. From a start page it follows links on the
 * same site (same origin) up to `relativeLinksLimit` further pages; an explicit list is read as
 * given. robots.txt is honoured for our user agent. Pages are parsed by `parse` (on a reading
 * thread in the product); once their text passes the document's cap the crawl stops and fails.
 */
export class WebsiteCrawler {
  private readonly robots = new Map<string, Robots>();

  constructor(
    private readonly http: OutboundHttpClient,
    private readonly options: CrawlOptions = DEFAULT_CRAWL,
    private readonly parse: PageParser = async (...args) => ok(parsePage(...args)),
  ) {}

  async read(
    start: string | null,
    links: readonly string[],
    relativeLinksLimit: number,
  ): Promise<Result<{ text: string; pages: string[] }, string>> {
    const queue = start ? [start] : [...links];
    const budget = start ? 1 + relativeLinksLimit : links.length;
    const seen = new Set<string>(queue.map(withoutFragment));
    const texts: string[] = [];
    const pages: string[] = [];
    let firstProblem: string | null = null;
    // UTF-16 units never outnumber the UTF-8 bytes: past the cap in units is past it in bytes.
    let units = 0;
    while (queue.length > 0 && pages.length < budget) {
      const url = queue.shift()!;
      const page = await this.fetchPage(url);
      if (!page.ok) {
        firstProblem ??= page.error;
        continue;
      }
      pages.push(page.value.url);
      const parsed = await this.parse(page.value.html, page.value.url, start ? new URL(start).origin : null);
      if (!parsed.ok) return parsed;
      texts.push(parsed.value.text);
      units += parsed.value.text.length;
      if (units > DOCUMENT_TEXT_MAX_BYTES) return err(documentFailureReason({ code: 'text_too_large' }));
      for (const link of parsed.value.links) {
        if (seen.has(link)) continue;
        seen.add(link);
        queue.push(link);
      }
    }
    if (pages.length === 0) return err(firstProblem ?? 'No page of the website could be read.');
    return ok({ text: texts.join('\n\n'), pages });
  }

  private async fetchPage(url: string): Promise<Result<{ url: string; html: string }, string>> {
    let current = url;
    for (let hop = 0; hop <= this.options.maxRedirects; hop++) {
      if (!(await this.allowedByRobots(current))) return err(`robots.txt does not allow reading ${current}.`);
      const res = await this.get(current);
      if (res.error === 'blocked_target') return err(`${current} is not a public address.`);
      const location = res.headers.location;
      if (res.statusCode !== null && res.statusCode >= 300 && res.statusCode < 400 && location) {
        current = new URL(location, current).toString();
        continue;
      }
      if (!res.ok) return err(`${current} could not be read (${res.statusCode ?? res.error}).`);
      const type = (res.headers['content-type'] ?? 'text/html').toLowerCase();
      if (!type.includes('html') && !type.startsWith('text/')) return err(`${current} is not a web page.`);
      return ok({ url: current, html: res.body });
    }
    return err(`${url} redirects too often.`);
  }

  private async allowedByRobots(url: string): Promise<boolean> {
    const origin = new URL(url).origin;
    if (!this.robots.has(origin)) {
      const robotsUrl = `${origin}/robots.txt`;
      const res = await this.get(robotsUrl);
      this.robots.set(origin, res.ok ? robotsParser(robotsUrl, res.body) : null);
    }
    return this.robots.get(origin)?.isAllowed(url, this.options.userAgent) ?? true;
  }

  private get(url: string): Promise<OutboundResponse> {
    return this.http.send({
      method: 'GET',
      url,
      timeoutMs: this.options.timeoutMs,
      maxResponseBytes: this.options.maxPageBytes,
      headers: [
        { name: 'Accept', value: 'text/html,text/plain;q=0.9' },
        { name: 'User-Agent', value: this.options.userAgent },
      ],
    });
  }
}
