import express from 'express';
import helmet from 'helmet';
import supertest from 'supertest';
import { securityHeaders } from './security-headers';

const OPTIONS = { contentSecurityPolicy: false, crossOriginEmbedderPolicy: false } as const;

function appWith(apply: (app: express.Express) => void): express.Express {
  const app = express();
  app.disable('x-powered-by');
  apply(app);
  app.get('/x', (_req, res) => void res.json({ ok: true }));
  return app;
}

describe('securityHeaders', () => {
  it('sets exactly the headers helmet sets, in the same order', async () => {
    const secure = securityHeaders(OPTIONS);
    const viaHelmet = await supertest(appWith((app) => app.use(helmet(OPTIONS)))).get('/x');
    const replayed = await supertest(
      appWith((app) =>
        app.use((_req, res, next) => {
          secure(res);
          next();
        }),
      ),
    ).get('/x');
    const lines = (res: supertest.Response) => {
      const raw = (res as unknown as { res: { rawHeaders: string[] } }).res.rawHeaders;
      const pairs: string[] = [];
      for (let i = 0; i < raw.length; i += 2)
        if (raw[i].toLowerCase() !== 'date') pairs.push(`${raw[i]}: ${raw[i + 1]}`);
      return pairs;
    };
    expect(lines(replayed)).toEqual(lines(viaHelmet));
    expect(replayed.headers['x-content-type-options']).toBe('nosniff');
    expect(replayed.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('refuses a Content-Security-Policy, whose directives may vary per request', () => {
    expect(() =>
      securityHeaders({ contentSecurityPolicy: { directives: { scriptSrc: ["'self'"] } } } as never),
    ).toThrow(/constant headers only/);
  });
});
