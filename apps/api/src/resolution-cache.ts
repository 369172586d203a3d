import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, isAbsolute, join, sep } from 'node:path';

/**
 * Where the require() calls of installed packages led on the last start. Resolving is about a
 * quarter of loading the api's modules: each request Node has not met from the same directory walks
 * node_modules folders, reads package.json files and follows pnpm's symlinks to their real paths.
 *
 * Only requests that led into pnpm's store (`node_modules/.pnpm` under `root`) are kept: any request
 * made by code in the store, and package names (not paths) asked for by the api's own code. The
 * store's folders are named by package version and never changed in place, and the links to them
 * are pnpm's to make: the whole record is dropped once the installation changes, as it is kept under
 * a digest of pnpm's own record of the install (`node_modules/.modules.yaml` and `.pnpm/lock.yaml`,
 * which an install that changes nothing writes again byte for byte). The api's own files and
 * workspace packages always resolve as Node does, so no edit of them is ever affected, and a
 * remembered file that no longer exists is resolved afresh.
 */
const FORMAT = `voiceplane-resolutions 2 ${process.version}`;

type Resolve = (request: string, parent: Module | undefined, isMain: boolean, options?: unknown) => string;
interface Kept {
  format: string;
  install: string;
  entries: [string, string][];
}

export interface ResolutionCache {
  /** Writes the record if anything was resolved afresh, then stops remembering. */
  save(): void;
}

export function installResolutionCache(file: string, root: string): ResolutionCache {
  const statics = Module as unknown as { _resolveFilename: Resolve };
  const original = statics._resolveFilename;
  const store = join(root, 'node_modules', '.pnpm') + sep;
  // Read on the first request worth remembering: the install, and what was kept for it.
  let install: string | null = null;
  let known = new Map<string, string>();
  const used = new Map<string, string>();
  let dirty = false;

  statics._resolveFilename = function resolveRemembered(this: unknown, request, parent, isMain, options) {
    const from = parent?.filename;
    const packageName = !request.startsWith('.') && !isAbsolute(request);
    if (options !== undefined || isMain || !from || !(packageName || from.startsWith(store)))
      return original.call(this, request, parent, isMain, options);
    if (install === null) {
      install = fingerprint(root);
      known = read(file, install);
    }
    const key = `${dirname(from)}\0${request}`;
    const kept = known.get(key);
    if (kept !== undefined && statSync(kept, { throwIfNoEntry: false })?.isFile()) {
      used.set(key, kept);
      return kept;
    }
    const resolved = original.call(this, request, parent, isMain, options);
    if (resolved.startsWith(store)) {
      used.set(key, resolved);
      dirty = true;
    }
    return resolved;
  };

  return {
    save() {
      statics._resolveFilename = original;
      if (!dirty || install === '') return;
      try {
        const record: Kept = { format: FORMAT, install: install!, entries: [...used] };
        mkdirSync(dirname(file), { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, JSON.stringify(record));
        renameSync(tmp, file);
      } catch {
        // Only the next start's resolving time is lost.
      }
    },
  };
}

/** The digest of pnpm's record of the install under `root`; '' (nothing kept) without one. */
function fingerprint(root: string): string {
  try {
    const hash = createHash('sha1');
    for (const name of ['.modules.yaml', join('.pnpm', 'lock.yaml')])
      hash.update(readFileSync(join(root, 'node_modules', name)));
    return hash.digest('base64');
  } catch {
    return '';
  }
}

function read(file: string, install: string): Map<string, string> {
  if (install === '') return new Map();
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as Kept;
    if (record.format === FORMAT && record.install === install) return new Map(record.entries);
  } catch {
    // Missing or damaged: resolved afresh and written again.
  }
  return new Map();
}
