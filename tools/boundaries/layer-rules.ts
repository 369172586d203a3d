/**
 * Rules of tools/check-boundaries about what each layer may reach inside the hexagon, as functions
 * of a file's text (or of an import graph) so they can be tested without a repository around them.
 */

/**
 * A repository token is a DI identifier whose name ends in `Repository` (`TOKENS.CallRepository`,
 * `CALL_TOKENS.CallRepository`, a bare `CallRepository` class): the tokens files name every
 * persistence port that way, and nothing else.
 */
const REPOSITORY_INJECTION = /@(?:inject|multiInject)\(\s*((?:[A-Za-z_$][\w$]*\.)?[A-Za-z_$][\w$]*Repository)\s*\)/g;

/**
 * The HTTP adapter parses, calls one use case and answers: it never holds a repository, so every
 * decision and every write goes through the application. One line per injected repository token.
 */
export function repositoryInjections(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(REPOSITORY_INJECTION)) {
    const line = text.slice(0, m.index).split('\n').length;
    out.push(`${file}:${line} injects the repository token ${m[1]} (controllers call use cases, not repositories)`);
  }
  return out;
}

/**
 * The feature folder a file of a layer's `src/` belongs to: its first folder, `common` and `ports`
 * included; null for a file at the root of `src/` (the package's index and token roll-up).
 */
export function featureOf(pathInSrc: string): string | null {
  const parts = pathInSrc.split(/[\\/]/);
  return parts.length > 1 ? parts[0] : null;
}

/**
 * An application file importing a file inside another slice (`../calls/end-call`) rather than the
 * slice (`../calls`, its `index.ts`): what a slice shows the others is what its index exports, so a
 * file can move inside its slice without touching them. `from` and `to` are paths under `src/`, `to`
 * without its extension and naming `index` when the import names a folder.
 */
export function deepSliceImport(from: string, to: string): boolean {
  const [a, b] = [featureOf(from), featureOf(to)];
  if (a === null || b === null || a === b) return false;
  const inside = to.split(/[\\/]/).slice(1);
  return !(inside.length === 1 && inside[0] === 'index');
}

/**
 * Every cycle between feature folders, each once, as the folders along it (`a → b → a`). Features
 * share through the folder that owns the piece or through common/ports, never by importing each
 * other: a cycle means neither owns it.
 */
export function featureCycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const found = new Set<string>();
  const out: string[] = [];
  const nodes = [...edges.keys()].sort();
  const visit = (start: string, node: string, path: string[], seen: Set<string>): void => {
    for (const next of [...(edges.get(node) ?? [])].sort()) {
      if (next === start) {
        // Name each cycle from its smallest folder so it is reported once.
        const least = path.reduce((a, b) => (b < a ? b : a));
        const at = path.indexOf(least);
        const rotated = [...path.slice(at), ...path.slice(0, at)];
        const key = rotated.join(' → ');
        if (!found.has(key)) {
          found.add(key);
          out.push(`${key} → ${rotated[0]}`);
        }
      } else if (!seen.has(next) && next > start) {
        // Only through folders after `start`: a cycle through an earlier one was found from there.
        seen.add(next);
        visit(start, next, [...path, next], seen);
        seen.delete(next);
      }
    }
  };
  for (const start of nodes) visit(start, start, [start], new Set([start]));
  return out;
}
