#!/usr/bin/env node
// Builds the console into dist/ when its sources changed since the last build: a stamp of every
// source file's path and contents is kept beside the output, so a start with nothing changed costs
// only the hashing (a few milliseconds), not a build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const SOURCES = [
  join(here, 'src'),
  join(here, 'index.html'),
  join(here, 'vite.config.ts'),
  join(here, 'package.json'),
  join(root, 'packages', 'client', 'src'),
  join(root, 'pnpm-lock.yaml'),
];
const STAMP = join(here, 'dist', '.sources-stamp');

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

const hash = createHash('sha256');
for (const file of SOURCES.flatMap(files))
  hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
const stamp = hash.digest('hex');
const force = process.argv.includes('--force');
if (
  !force &&
  existsSync(STAMP) &&
  readFileSync(STAMP, 'utf8') === stamp &&
  existsSync(join(here, 'dist', 'index.html'))
)
  process.exit(0);

process.stdout.write('Building the console (apps/console)…\n');
const vite = join(here, 'node_modules', '.bin', 'vite');
const built = spawnSync(vite, ['build', '--logLevel', 'warn'], { cwd: here, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
writeFileSync(STAMP, stamp);
