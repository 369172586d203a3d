import { OutboundHttpClient, OutboundResponse } from '@voiceplane/application';
import { Result, err, ok } from '@voiceplane/domain';
import type * as Cheerio from 'cheerio';
import robotsParser from 'robots-parser';
import { pageText } from './file-text';

// cheerio (and undici under it) loads on the first crawl, not at start.
let cheerio: typeof Cheerio | undefined;
const load: typeof Cheerio.load = (...args) => (cheerio ??= require('cheerio') as typeof Cheerio).load(...args);

export interface CrawlOptions {
  readonly userAgent: string;
  readonly timeoutMs: number;
  readonly maxPageBytes: number;
  readonly maxRedirects: number;
}

export const DEFAULT_CRAWL: CrawlOptions = { userAgent: 'voiceplane-knowledge', timeoutMs: 10_000, maxPageBytes: 2 * 1024 * 1024, maxRedirects: 5 };

type Robots = ReturnType<typeof robotsParser> | null;

/**
 * Reads a website for a knowledge base through the guarded client, so every request — each
 * redirect hop included — passes the outbound policy. From a start page it follows links on the
 * same site (same origin) up to `relativeLinksLimit` further pages; an explicit list is read as
 * given. robots.txt is honoured for our user agent.
 */
export class WebsiteCrawler {
  private readonly robots = new Map<string, Robots>();

  constructor(private readonly http: OutboundHttpClient, private readonly options: CrawlOptions = DEFAULT_CRAWL) {}

  async read(start: string | null, links: readonly string[], relativeLinksLimit: number): Promise<Result<{ text: string; pages: string[] }, string>> {
    const queue = start ? [start] : [...links];
    const budget = start ? 1 + relativeLinksLimit : links.length;
    const seen = new Set<string>(queue.map(withoutFragment));
    const texts: string[] = [];
    const pages: string[] = [];
    let firstProblem: string | null = null;
    while (queue.length > 0 && pages.length < budget) {
      const url = queue.shift()!;
      const page = await this.fetchPage(url);
      if (!page.ok) {
        firstProblem ??= page.error;
        continue;
      }
      pages.push(page.value.url);
      texts.push(pageText(page.value.html));
      if (!start) continue;
      for (const link of sameSiteLinks(page.value.html, page.value.url, start)) {
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
      method: 'GET', url, timeoutMs: this.options.timeoutMs, maxResponseBytes: this.options.maxPageBytes,
      headers: [{ name: 'Accept', value: 'text/html,text/plain;q=0.9' }, { name: 'User-Agent', value: this.options.userAgent }],
    });
  }
}

const withoutFragment = (url: string) => url.split('#')[0];

function sameSiteLinks(html: string, pageUrl: string, start: string): string[] {
  const origin = new URL(start).origin;
  const $ = load(html);
  const found: string[] = [];
  $('a[href]').each((_, el) => {
    try {
      const target = new URL($(el).attr('href') ?? '', pageUrl);
      if (target.origin === origin && (target.protocol === 'http:' || target.protocol === 'https:')) found.push(withoutFragment(target.toString()));
    } catch {
      // An href that is not a URL is not followed.
    }
  });
  return found;
}
