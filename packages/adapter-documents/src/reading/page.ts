import type * as Cheerio from 'cheerio';
import { Result } from '@voiceplane/domain';
import { pageText } from '../file-text';

// cheerio (and undici under it) loads on the first crawl, not at start.
let cheerio: typeof Cheerio | undefined;
const load: typeof Cheerio.load = (...args) => (cheerio ??= require('cheerio') as typeof Cheerio).load(...args);

/** What a crawled page gives: its readable text and the links to follow. */
export interface ParsedPage {
  readonly text: string;
  /** Links to pages of `origin`, without fragments; none when `origin` is null (nothing is followed). */
  readonly links: string[];
}

/** Parses a page, or says why it could not (a reason for the user); the product's runs on a reading thread. */
export type PageParser = (html: string, pageUrl: string, origin: string | null) => Promise<Result<ParsedPage, string>>;

export function parsePage(html: string, pageUrl: string, origin: string | null): ParsedPage {
  return { text: pageText(html), links: origin === null ? [] : sameSiteLinks(html, pageUrl, origin) };
}

export const withoutFragment = (url: string) => url.split('#')[0];

function sameSiteLinks(html: string, pageUrl: string, origin: string): string[] {
  const $ = load(html);
  const found: string[] = [];
  $('a[href]').each((_, el) => {
    try {
      const target = new URL($(el).attr('href') ?? '', pageUrl);
      if (target.origin === origin && (target.protocol === 'http:' || target.protocol === 'https:'))
        found.push(withoutFragment(target.toString()));
    } catch {
      // An href that is not a URL is not followed.
    }
  });
  return found;
}
