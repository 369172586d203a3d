/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): the top frames by self time, and the share of
 * samples per package, so a profile taken under a benchmark's load can be read without DevTools.
 *   node tools/dist/bench/cpuprofile-summary.js <file.cpuprofile> [top=40] [filter-substring]
 * With a filter, only samples whose stack holds a frame whose url contains it are counted (e.g.
 * `adapter-http` to look at requests only when the bench and the api share a process).
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

function main(): void {
  const [file, topArg, filter] = process.argv.slice(2);
  if (!file) throw new Error('usage: cpuprofile-summary <file.cpuprofile> [top] [filter]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const matches = new Map<number, boolean>();
  const stackMatches = (id: number): boolean => {
    if (!filter) return true;
    const known = matches.get(id);
    if (known !== undefined) return known;
    const n = byId.get(id)!;
    const p = parent.get(id);
    const m = n.callFrame.url.includes(filter) || (p !== undefined && stackMatches(p));
    matches.set(id, m);
    return m;
  };
  const self = new Map<string, number>();
  const area = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    if (!stackMatches(id)) return;
    const dt = profile.timeDeltas[i] ?? 0;
    const f = byId.get(id)!.callFrame;
    const where = f.url
      .replace(/^file:\/\//, '')
      .replace(/.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')
      .replace(/.*\/(packages|apps|tools)\//, '$1/');
    const key = `${f.functionName || '(anonymous)'}  ${where}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    const pkg =
      f.url === ''
        ? `(${f.functionName})`
        : where.startsWith('packages/') || where.startsWith('apps/')
          ? where.split('/').slice(0, 2).join('/')
          : where.startsWith('node:')
            ? 'node internals'
            : where.split('/')[0].startsWith('@')
              ? where.split('/').slice(0, 2).join('/')
              : where.split('/')[0];
    area.set(pkg, (area.get(pkg) ?? 0) + dt);
    total += dt;
  });
  const pct = (t: number) => `${((t / total) * 100).toFixed(1).padStart(5)} %`;
  process.stdout.write(`${(total / 1000).toFixed(0)} ms of samples${filter ? ` under '${filter}'` : ''}\n\nBy area:\n`);
  for (const [k, t] of [...area].sort((a, b) => b[1] - a[1]).slice(0, 25)) process.stdout.write(`  ${pct(t)}  ${k}\n`);
  process.stdout.write('\nTop frames by self time:\n');
  for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 40)))
    process.stdout.write(`  ${pct(t)}  ${k}\n`);
}

main();
