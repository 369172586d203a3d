import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The record of where installed packages' require() calls led (built output, in fresh processes:
 * it replaces Node's resolver for the process), over a small pnpm-shaped install.
 */
const BUILT = resolve(__dirname, '..', 'dist', 'resolution-cache.js');

describe('resolution cache', () => {
  const root = mkdtempSync(join(tmpdir(), 'voiceplane-resolutions-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const modules = join(root, 'node_modules');
  const store = join(modules, '.pnpm');
  const record = join(root, 'cache', 'resolutions.json');
  const app = join(root, 'app.js');
  // a@1 requires b through its own node_modules link, as pnpm lays packages out.
  const a = join(store, 'a@1.0.0', 'node_modules', 'a');
  const bLink = join(store, 'a@1.0.0', 'node_modules', 'b');
  const b = (version: string) => join(store, `b@${version}`, 'node_modules', 'b');

  beforeAll(() => {
    for (const version of ['1.0.0', '2.0.0']) {
      mkdirSync(b(version), { recursive: true });
      writeFileSync(join(b(version), 'package.json'), JSON.stringify({ name: 'b', version, main: 'main.js' }));
      writeFileSync(join(b(version), 'main.js'), `module.exports = '${version}';\n`);
    }
    mkdirSync(a, { recursive: true });
    writeFileSync(join(a, 'index.js'), "module.exports = () => require('b');\n");
    symlinkSync(b('1.0.0'), bLink);
    writeFileSync(join(modules, '.modules.yaml'), 'layout 1\n');
    writeFileSync(join(store, 'lock.yaml'), 'b: 1.0.0\n');
    writeFileSync(app, `module.exports = require(${JSON.stringify(join(a, 'index.js'))});\n`);
  });

  /** Loads a and asks it for b with the cache installed, saves, prints which b answered. */
  function run(): string {
    const script = `
      const cache = require(${JSON.stringify(BUILT)}).installResolutionCache(${JSON.stringify(record)}, ${JSON.stringify(root)});
      const b = require(${JSON.stringify(app)})();
      cache.save();
      process.stdout.write(b);`;
    return execFileSync(process.execPath, ['-e', script], {
      env: { ...process.env, VOICEPLANE_COMPILE_CACHE: '0' },
    }).toString();
  }

  function relink(version: string): void {
    unlinkSync(bLink);
    symlinkSync(b(version), bLink);
  }

  it('is kept per install: resolved afresh once pnpm records another one', () => {
    expect(run()).toBe('1.0.0');
    // A link changed behind pnpm's back is not noticed: the record is what the last start found.
    relink('2.0.0');
    expect(run()).toBe('1.0.0');
    // Any install that changes something rewrites pnpm's lockfile copy.
    writeFileSync(join(store, 'lock.yaml'), 'b: 2.0.0\n');
    expect(run()).toBe('2.0.0');
    relink('1.0.0');
    writeFileSync(join(store, 'lock.yaml'), 'b: 1.0.0\n');
    expect(run()).toBe('1.0.0');
  });

  it('resolves afresh a remembered file that is gone, and starts over from a damaged record', () => {
    expect(run()).toBe('1.0.0');
    rmSync(b('1.0.0'), { recursive: true });
    relink('2.0.0');
    expect(run()).toBe('2.0.0');
    writeFileSync(record, '{ not json');
    expect(run()).toBe('2.0.0');
    expect(run()).toBe('2.0.0');
  });

  it('leaves paths asked for from outside the store to Node', () => {
    // app.js sits outside the store and asks for a by path: never recorded, only a's request of b.
    run();
    const kept = JSON.parse(readFileSync(record, 'utf8')) as { entries: [string, string][] };
    expect(kept.entries.map(([key]) => key.split('\0')[1])).toEqual(['b']);
  });
});
