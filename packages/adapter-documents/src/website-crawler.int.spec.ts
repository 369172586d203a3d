import { GuardedHttpClient } from '@voiceplane/adapter-outbound-http';
import { OutboundHttpClient } from '@voiceplane/application';
import {
  startReceiver,
  tableResolver,
  type Receiver,
} from '@voiceplane/adapter-outbound-http/test-support/local-network';
import { ExtractingDocumentReader } from './document-reader';
import { ReadingThread } from './reading/reading-thread';
import { WebsiteCrawler } from './website-crawler';

/**
 * The crawler against a site on 127.0.0.1 through the real guarded client. The site is reached under
 * the name `site.test`, which only a permissive client may resolve to loopback (as development
 * allows); every other address goes through the production policy, so a redirect that leaves the
 * site for a private address is refused before any connection is made.
 */
let site: Receiver;
let secret: Receiver;
const clients: GuardedHttpClient[] = [];
const BIG_PARAGRAPH = 'All work and no play makes Jack a dull boy. '.repeat(45_000);

beforeAll(async () => {
  secret = await startReceiver((_req, res) => res.end('<p>internal admin</p>'));
  site = await startReceiver((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    if (req.url === '/moved')
      return void res.writeHead(302, { location: `http://127.0.0.1:${secret.port}/admin` }).end();
    if (req.url === '/old') return void res.writeHead(301, { location: '/new' }).end();
    if (req.url === '/new') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>The new page.</p>');
    // Eight pages of nearly 2 MB of text each, linked in a chain: more text than a document may hold.
    const big = /^\/big\/(\d)$/.exec(req.url ?? '');
    if (big)
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<p>${BIG_PARAGRAPH}</p><a href="/big/${Number(big[1]) + 1}">next</a>`);
    res.writeHead(404).end();
  });
});
afterAll(async () => {
  clients.forEach((c) => c.close());
  await Promise.all([site.close(), secret.close()]);
});

function client(): OutboundHttpClient {
  const make = (allowPrivateTargets: boolean) => {
    const c = new GuardedHttpClient({
      userAgent: 'voiceplane-test',
      allowPrivateTargets,
      requireHttps: false,
      resolve: tableResolver({ 'site.test': ['127.0.0.1'] }).resolve,
    });
    clients.push(c);
    return c;
  };
  const local = make(true);
  const strict = make(false);
  return { send: (request) => (new URL(request.url).hostname === 'site.test' ? local : strict).send(request) };
}

describe('the website crawler through the guarded client', () => {
  it('follows a redirect within the site', async () => {
    const read = await new WebsiteCrawler(client()).read(`http://site.test:${site.port}/old`, [], 0);
    expect(read).toEqual({ ok: true, value: { text: 'The new page.', pages: [`http://site.test:${site.port}/new`] } });
  });

  it('refuses a redirect to a private address, and never connects to it', async () => {
    const read = await new WebsiteCrawler(client()).read(`http://site.test:${site.port}/moved`, [], 0);
    expect(read).toEqual({ ok: false, error: `http://127.0.0.1:${secret.port}/admin is not a public address.` });
    expect(secret.requests).toHaveLength(0);
  });

  it('stops a crawl whose text passes the document cap, parsing its pages on the reading thread', async () => {
    const thread = new ReadingThread();
    try {
      const reader = new ExtractingDocumentReader(client(), thread);
      let last = performance.now();
      let stallMs = 0;
      const tick = setInterval(() => {
        stallMs = Math.max(stallMs, performance.now() - last);
        last = performance.now();
      }, 5);
      const read = await reader
        .read({ type: 'website', url: `http://site.test:${site.port}/big/1`, links: [], relativeLinksLimit: 20 }, null)
        .finally(() => clearInterval(tick));
      expect(read).toEqual({
        ok: false,
        error: "The document's text is larger than 10 MB; split it into smaller documents.",
      });
      expect(site.requests.filter((r) => r.url?.startsWith('/big/'))).toHaveLength(6);
      // Parsing one of these pages on the event loop holds it for over a second on a 2-core machine; the bound
      // leaves room for a machine loaded with other work.
      expect(stallMs).toBeLessThan(2_000);
    } finally {
      await thread.close();
    }
  });
});
