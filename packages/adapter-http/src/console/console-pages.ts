import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Application } from 'express';

/**
 * The console's policy: its own scripts and styles only (no inline script), the API on the same
 * origin, recordings played from blobs fetched with the session's token, never framed.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The built console under `/app`: hashed assets cached for a year, and `index.html` (never cached)
 * for every other path below `/app`, where the console's router takes over. Nothing is mounted when
 * the console was not built.
 */
export function mountConsole(app: Application, dir: string | null | undefined): void {
  if (!dir || !existsSync(join(dir, 'index.html'))) return;
  const page = readFileSync(join(dir, 'index.html'));
  app.use(
    '/app/assets',
    express.static(join(dir, 'assets'), {
      immutable: true,
      maxAge: '365d',
      index: false,
      fallthrough: false,
      setHeaders: (res) => res.setHeader('Content-Security-Policy', CONSOLE_CSP),
    }),
  );
  app.get(['/app', '/app/{*page}'], (_req, res) => {
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(page);
  });
}
