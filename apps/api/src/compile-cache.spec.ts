import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The compile cache of the api's start (built output, in fresh processes: it replaces Node's
 * CommonJS compiler for the process). What matters is that it can never run stale code.
 */
const BUILT = resolve(__dirname, '..', 'dist', 'compile-cache.js');

describe('compile cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'voiceplane-compile-cache-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cacheDir = join(dir, 'cache');
  const cacheFile = join(cacheDir, 'modules.bin');
  const moduleFile = join(dir, 'answer.js');

  /** Requires the module with the cache installed, saves, prints what the module answered. */
  function run(): string {
    const script = `
      const cache = require(${JSON.stringify(BUILT)}).installCompileCache(${JSON.stringify(cacheDir)});
      const answer = require(${JSON.stringify(moduleFile)});
      cache.save();
      process.stdout.write(JSON.stringify(answer()));`;
    return execFileSync(process.execPath, ['-e', script], {
      env: { ...process.env, VOICEPLANE_COMPILE_CACHE: '0' },
    }).toString();
  }

  it('serves a module from the cache and compiles it again once its text changes', () => {
    writeFileSync(moduleFile, 'module.exports = () => ({ n: 1, file: __filename, req: typeof require.resolve });\n');
    expect(JSON.parse(run())).toEqual({ n: 1, file: moduleFile, req: 'function' });
    const written = statSync(cacheFile).mtimeMs;

    // Unchanged: served from the cache, nothing to write.
    expect(JSON.parse(run())).toEqual({ n: 1, file: moduleFile, req: 'function' });
    expect(statSync(cacheFile).mtimeMs).toBe(written);

    // Same length, other text: the digest differs, so the new text runs and the cache is rewritten.
    writeFileSync(moduleFile, 'module.exports = () => ({ n: 2, file: __filename, req: typeof require.resolve });\n');
    expect(JSON.parse(run())).toEqual({ n: 2, file: moduleFile, req: 'function' });
    expect(statSync(cacheFile).mtimeMs).not.toBe(written);
  });

  it('starts without a cache when the file is damaged', () => {
    writeFileSync(cacheFile, 'not a cache');
    writeFileSync(moduleFile, 'module.exports = () => 3;\n');
    expect(run()).toBe('3');
    expect(run()).toBe('3');
  });
});
