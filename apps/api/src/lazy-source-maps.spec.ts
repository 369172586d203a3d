import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * Stack traces of the api as `npm start` runs it (built output, no --enable-source-maps, in a fresh
 * process): TypeScript positions, the same Node's own source maps give.
 */
const DIST = resolve(__dirname, '..', 'dist');

function stackOf(nodeArgs: string[], install: boolean): string {
  const script = `
    ${install ? `require(${JSON.stringify(resolve(DIST, 'lazy-source-maps.js'))}).installLazySourceMaps();` : ''}
    try { require(${JSON.stringify(resolve(DIST, 'start-options.js'))}).parseStartOptions(null); }
    catch (e) { process.stdout.write(e.stack.split('\\n').slice(0, 2).join('\\n')); }`;
  return execFileSync(process.execPath, [...nodeArgs, '-e', script]).toString();
}

it('prints TypeScript positions without Node source maps, as Node prints them with', () => {
  const lazy = stackOf([], true);
  expect(lazy).toMatch(/src\/start-options\.ts:\d+:\d+\)$/);
  expect(lazy).toBe(stackOf(['--enable-source-maps'], false));
});

it('leaves Node its own source maps when they are on', () => {
  expect(stackOf(['--enable-source-maps'], true)).toBe(stackOf(['--enable-source-maps'], false));
});
