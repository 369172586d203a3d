import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, isAbsolute, resolve } from 'node:path';

/**
 * TypeScript positions in printed stack traces without Node's `--enable-source-maps`, which parses
 * every module's map while loading it and turns the start-up code cache off (compile-cache.ts):
 * a warm restart paid ≈ 0.5 s for maps no one had asked for. Here a map is read only when a stack
 * is formatted (an error printed or logged), and only for the files in that stack; each map is
 * parsed once. Does nothing when Node's own source maps are on.
 */
export function installLazySourceMaps(): void {
  if (process.sourceMapsEnabled) return;
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (file: string): SourceMap | null => {
    let map = maps.get(file);
    if (map === undefined) {
      map = null;
      try {
        // Only the repository's own output carries a map beside it; installed packages are left as they are.
        if (!file.includes('node_modules') && existsSync(`${file}.map`))
          map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
      } catch {
        map = null;
      }
      maps.set(file, map);
    }
    return map;
  };
  Error.prepareStackTrace = (error: Error, frames: NodeJS.CallSite[]): string => {
    let header: string;
    try {
      header = Error.prototype.toString.call(error);
    } catch {
      header = 'Error';
    }
    const lines = frames.map((frame) => {
      const text = String(frame);
      const file = frame.getFileName();
      const line = frame.getLineNumber();
      const column = frame.getColumnNumber();
      if (!file || line === null || column === null || !file.endsWith('.js')) return `    at ${text}`;
      const map = mapOf(file.startsWith('file://') ? new URL(file).pathname : file);
      const entry = map?.findEntry(line - 1, column - 1) as
        | { originalSource?: string; originalLine?: number; originalColumn?: number }
        | undefined;
      if (!entry?.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined)
        return `    at ${text}`;
      const path = file.startsWith('file://') ? new URL(file).pathname : file;
      // tsc writes sources relative to the map's directory.
      const source = entry.originalSource.startsWith('file://')
        ? new URL(entry.originalSource).pathname
        : isAbsolute(entry.originalSource)
          ? entry.originalSource
          : resolve(dirname(path), entry.originalSource);
      return `    at ${text.replace(`${file}:${line}:${column}`, `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`)}`;
    });
    return [header, ...lines].join('\n');
  };
}
