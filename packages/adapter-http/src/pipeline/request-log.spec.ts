import { PassThrough } from 'node:stream';
import express from 'express';
import pino from 'pino';
import supertest from 'supertest';
import { ApiRequest } from './request-context';
import { requestLog } from './request-log';

function appLoggingTo(lines: object[]) {
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) =>
    lines.push(
      ...chunk
        .toString('utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ),
  );
  const app = express();
  app.use((req, _res, next) => {
    (req as ApiRequest).ctx = { requestId: 'req_1', rawBody: Buffer.alloc(0) };
    next();
  });
  app.use(requestLog(pino({ level: 'info' }, sink)));
  app.get('/ok', (_req, res) => void res.json({ ok: true }));
  app.get('/broken', (_req, res) => void res.status(500).json({}));
  return app;
}

describe('requestLog', () => {
  it('writes one line per request with id, method, path without the query, status and time', async () => {
    const lines: Array<Record<string, any>> = [];
    await supertest(appLoggingTo(lines)).get('/ok?token=secret').set('Authorization', 'Bearer vp_secret');
    await supertest(appLoggingTo(lines)).get('/broken');
    await new Promise((r) => setImmediate(r));

    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        req: { id: 'req_1', method: 'GET', url: '/ok' },
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
      expect.objectContaining({ level: 50, msg: 'request errored', res: { statusCode: 500 } }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it('never writes an automation hook token, however the path is spelled', async () => {
    const lines: Array<Record<string, any>> = [];
    for (const path of [
      '/api/hooks/automations/aut_1/tokSecret1',
      '/API/Hooks/Automations/aut_1/tokSecret2/',
      '/api/hooks/automations/aut_1/tokSecret3?x=1',
    ]) {
      await supertest(appLoggingTo(lines)).post(path);
    }
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => l.req.url)).toEqual([
      '/api/hooks/automations/aut_1/[redacted]',
      '/API/Hooks/Automations/aut_1/[redacted]/',
      '/api/hooks/automations/aut_1/[redacted]',
    ]);
    expect(JSON.stringify(lines)).not.toContain('tokSecret');
  });
});
