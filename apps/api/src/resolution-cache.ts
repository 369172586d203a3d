import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join, sep } from 'node:path';

/**
 * Where the require() calls of installed packages led on the last start. Resolving is about a
 * quarter of loading the api's modules: each request Node has not met from the same directory walks
 * node_modules folders, reads package.json files and follows pnpm's symlinks to their real paths.
 *
 * Only requests made by code in pnpm's store (`node_modules/.pnpm`) that led back into it are kept.
 * Those folders are named by package version and never changed in place, and the whole record is
 * dropped once the installation changes: it is kept under a digest of pnpm's own record of the
 * install (`node_modules/.modules.yaml` and `.pnpm/lock.yaml`, which an install that changes nothing
 * writes again byte for byte). The api's own code always resolves as Node does, so no edit of it is
 * ever affected, and a remembered file that no longer exists is resolved afresh.
 */
const STORE = `${sep}node_modules${sep}.pnpm${sep}`;
const FORMAT = `voiceplane-resolutions 1 ${process.version}`;

type Resolve = (request: string, parent: Module | undefined, isMain: boolean, options?: unknown) => string;
interface Kept { format: string; install: string; entries: [string, string][] }

export interface ResolutionCache {
  /** Writes the record if anything was resolved afresh, then stops remembering. */
  save(): void;
}

export function installResolutionCache(file: string): ResolutionCache {
  const statics = Module as unknown as { _resolveFilename: Resolve };
  const original = statics._resolveFilename;
  // Set on the first request from the store: the install it belongs to, and what was kept for it.
  let install: string | null = null;
  let known = new Map<string, string>();
  const used = new Map<string, string>();
  let dirty = false;

  statics._resolveFilename = function resolveRemembered(this: unknown, request, parent, isMain, options) {
    const from = parent?.filename;
    if (options !== undefined || isMain || !from || !from.includes(STORE)) return original.call(this, request, parent, isMain, options);
    if (install === null) {
      install = fingerprint(from.slice(0, from.indexOf(STORE)));
      known = read(file, install);
    }
    const key = `${dirname(from)}\0${request}`;
    const kept = known.get(key);
    if (kept !== undefined && statSync(kept, { throwIfNoEntry: false })?.isFile()) {
      used.set(key, kept);
      return kept;
    }
    const resolved = original.call(this, request, parent, isMain, options);
    if (resolved.includes(STORE)) {
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
    for (const name of ['.modules.yaml', join('.pnpm', 'lock.yaml')]) hash.update(readFileSync(join(root, 'node_modules', name)));
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
