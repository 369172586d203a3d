/**
 * The request body reader (express.json with `verify`, plus this API's rules: blank bodies, the
 * nesting-depth scan, the drain cap) against bare express.json with `verify`, each server in its
 * own process: a 400-byte JSON send body, read with its exact bytes kept and handed to a handler
 * that answers its length. What the API's own rules cost on the hot path. (It first decided that
 * the hand-written reader, measured at 0.97–1.15 of express.json, would give way to express's parsers.)
 *   npx tsc -b && node tools/dist/bench/body-reader.js        (BENCH_SECONDS, BENCH_CONNECTIONS)
 */
import { fork, type ChildProcess } from 'node:child_process';
import express from 'express';
import { bodyReader } from '@voiceplane/adapter-http/dist/pipeline/body-reader';
import { measure, reportAgainst, runBench, settings, type Measurement } from './lib/harness';

const BODY = JSON.stringify({
  sender_id: 12,
  recipient_phone: '+16505551234',
  message: 'Your order 4711 has shipped and will arrive on Thursday. '.repeat(5),
});

function serve(kind: string): void {
  const app = express();
  app.disable('x-powered-by');
  app.use((req, _res, next) => {
    (req as unknown as { ctx: Record<string, unknown> }).ctx = {};
    next();
  });
  if (kind === 'ours') {
    app.use(bodyReader());
  } else {
    app.use(
      express.json({
        limit: '1mb',
        strict: false,
        type: ['application/json', 'application/*+json'],
        verify: (req, _res, buf) => {
          (req as unknown as { ctx: Record<string, unknown> }).ctx.rawBody = buf;
        },
      }),
    );
  }
  app.post('/send', (req, res) => {
    res.json({
      length: ((req as unknown as { ctx: { rawBody?: Buffer } }).ctx.rawBody ?? Buffer.alloc(0)).length,
      to: (req.body as { recipient_phone?: string }).recipient_phone,
    });
  });
  const server = app.listen(0, '127.0.0.1', () =>
    process.send?.({ port: (server.address() as { port: number }).port }),
  );
}

function start(kind: string): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(__filename, ['serve', kind]);
  return new Promise((resolve) =>
    child.once('message', (m: { port: number }) => resolve({ child, url: `http://127.0.0.1:${m.port}/send` })),
  );
}

async function main(): Promise<void> {
  const runs: Array<[Measurement, Measurement]> = [];
  for (let i = 0; i < 3; i += 1) {
    const ours = await start('ours');
    const lib = await start('express');
    const headers = { 'Content-Type': 'application/json' };
    // Alternate the order so neither always runs on the warmer machine.
    const a =
      i % 2 === 0 ? await measure('body reader (express.json + rules)', ours.url, headers, 'POST', BODY) : undefined;
    const b = await measure('bare express.json + verify', lib.url, headers, 'POST', BODY);
    const c = a ?? (await measure('body reader (express.json + rules)', ours.url, headers, 'POST', BODY));
    runs.push([c, b]);
    ours.child.kill();
    lib.child.kill();
  }
  process.stdout.write(
    `\nBody reading, ${BODY.length}-byte JSON (${settings.connections} connections, ${settings.duration} s, 3 runs, each server its own process)\n`,
  );
  for (const [ours, lib] of runs) {
    process.stdout.write(
      `  ${ours.label.padEnd(34)} ${ours.rps.toFixed(0).padStart(8)} req/s   p50 ${ours.p50} ms   p99 ${ours.p99} ms\n`,
    );
    reportAgainst(ours, lib);
  }
}

if (process.argv[2] === 'serve') serve(process.argv[3]);
else runBench(main);
