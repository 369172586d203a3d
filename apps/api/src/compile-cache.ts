import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { Script, constants as vmConstants } from 'node:vm';
import { embeddedDataDir } from './embedded-data-dir';
import { installResolutionCache } from './resolution-cache';

/**
 * A V8 code cache for the CommonJS modules loaded while the api starts. Node 20 has no
 * `module.enableCompileCache()`, and parsing and compiling the ~2,000 modules the api loads is a
 * large share of a restart. Each module's compiled code is kept in one file (`dir`), keyed by a
 * digest of the module's source text, so an edited or upgraded file is simply compiled again;
 * V8 itself also refuses data made by another V8 version or flags, and the entry is then replaced.
 *
 * The cache is written once the process is serving (`save()`), from what V8 compiled until then —
 * which includes the functions that actually ran, not only the top level of each file. Nothing here
 * may stop a start: an unreadable or unwritable cache means compiling as before.
 */
interface Entry {
  readonly digest: string;
  readonly data: Buffer;
}

const MODULE_PARAMS = '(function (exports, require, module, __filename, __dirname) { ';
/** Where the api's dependencies are installed (this file is apps/api/dist/compile-cache.js). */
const REPOSITORY = resolve(__dirname, '..', '..', '..');
const FORMAT = `voiceplane-compile-cache 1 ${process.version} ${process.arch}`;

type InternalModule = Module & {
  _compile(content: string, filename: string, format?: string): unknown;
  paths: string[];
};
type ModuleStatics = typeof Module & {
  _resolveFilename(request: string, parent: Module, isMain: boolean, options?: { paths?: string[] }): string;
  _resolveLookupPaths(request: string, parent: Module): string[] | null;
  _extensions: NodeJS.RequireExtensions;
  _cache: NodeJS.Dict<NodeJS.Module>;
};

export interface CompileCache {
  /** Writes the cache if anything was compiled without it, then stops caching later modules. */
  save(): void;
}

export function installCompileCache(dir: string): CompileCache {
  const file = join(dir, 'modules.bin');
  const known = read(file);
  // Finding the files is the other large cost of loading them (see there).
  const resolutions = installResolutionCache(join(dir, 'resolutions.json'), REPOSITORY);
  const compiled = new Map<string, { digest: string; script: Script }>();
  let dirty = false;
  const proto = Module.prototype as InternalModule;
  const original = proto._compile;
  const statics = Module as ModuleStatics;

  proto._compile = function compileWithCache(this: InternalModule, content: string, filename: string, format?: string) {
    // Anything but a plain CommonJS file (an ES module reached by require, a source map to honour,
    // a shebang line) keeps Node's own compiler.
    const plain =
      (format === undefined || format === 'commonjs') && /\.c?js$/.test(filename) && !content.startsWith('#!');
    if (!plain || process.sourceMapsEnabled) return original.call(this, content, filename, format);
    const digest = createHash('sha1').update(content).digest('base64');
    const entry = known.get(filename);
    const cachedData = entry && entry.digest === digest ? entry.data : undefined;
    const script = new Script(MODULE_PARAMS + content + '\n})', {
      filename,
      cachedData,
      importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    if (!cachedData || script.cachedDataRejected) dirty = true;
    compiled.set(filename, { digest, script });
    const fn = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return fn.call(this.exports, this.exports, requireFor(this, statics), this, filename, dirname(filename));
  };

  return {
    save() {
      proto._compile = original;
      resolutions.save();
      if (!dirty) return;
      try {
        const entries: { name: string; digest: string; data: Buffer }[] = [];
        for (const [name, { digest, script }] of compiled)
          entries.push({ name, digest, data: script.createCachedData() });
        compiled.clear();
        write(file, entries);
      } catch {
        // A read-only or full disk only costs the next start its compile time.
      }
    },
  };
}

/** The `require` a module sees, as Node makes it for its own wrapper. */
function requireFor(mod: InternalModule, statics: ModuleStatics): NodeJS.Require {
  const require = ((id: string) => mod.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: { paths?: string[] }) =>
    statics._resolveFilename(request, mod, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request: string) => statics._resolveLookupPaths(request, mod);
  require.resolve = resolve;
  require.main = process.mainModule;
  require.extensions = statics._extensions;
  require.cache = statics._cache;
  return require;
}

// Layout: a header line, a JSON index line, then the entries' bytes back to back.
function read(file: string): Map<string, Entry> {
  const out = new Map<string, Entry>();
  try {
    const buf = readFileSync(file);
    const headerEnd = buf.indexOf(10);
    if (buf.toString('utf8', 0, headerEnd) !== FORMAT) return out;
    const indexEnd = buf.indexOf(10, headerEnd + 1);
    const index = JSON.parse(buf.toString('utf8', headerEnd + 1, indexEnd)) as [string, string, number][];
    let at = indexEnd + 1;
    for (const [name, digest, length] of index) {
      out.set(name, { digest, data: buf.subarray(at, at + length) });
      at += length;
    }
  } catch {
    out.clear();
  }
  return out;
}

function write(file: string, entries: { name: string; digest: string; data: Buffer }[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const index = JSON.stringify(entries.map((e) => [e.name, e.digest, e.data.length]));
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([Buffer.from(`${FORMAT}\n${index}\n`), ...entries.map((e) => e.data)]));
  renameSync(tmp, file);
}

/**
 * Installed as this module loads — the api's entry imports it before anything worth caching.
 * Embedded default only (the cache lives in its data directory); `VOICEPLANE_COMPILE_CACHE=0` turns
 * it off. The directory is the configuration's VOICEPLANE_DATA_DIR rule, read before the
 * configuration itself loads (an invalid configuration stops the start before the cache is written).
 */
const dataDir = embeddedDataDir(process.env);
export const startupCompileCache: CompileCache | null =
  !dataDir || process.env.VOICEPLANE_COMPILE_CACHE === '0' ? null : installCompileCache(join(dataDir, 'compile-cache'));
