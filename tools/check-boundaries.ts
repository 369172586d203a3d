/**
 * Fails (exit 1) on any edge the architecture forbids:
 *  - domain depends on nothing but DOMAIN_LIBRARIES and does no I/O, clock, randomness or async;
 *  - application depends only on domain;
 *  - an adapter depends on domain/application and its own technology, never on another adapter;
 *  - composition (what the apps share) depends on domain, application and adapters, never on an app;
 *  - only apps read process.env;
 *  - no app is imported by anything, and DI identifiers carry their type (tools/boundaries/wiring-rules.ts);
 *  - the HTTP adapter injects no repository token, and no two feature folders of the domain or the
 *    application import each other, directly or round a longer circle, and an application slice reaches
 *    another only through its index.ts (tools/boundaries/layer-rules.ts);
 *  - the voice agent reaches the control plane only over its runtime routes: it depends on the domain,
 *    the application (the conversation policy) and the LiveKit adapter, never on composition, the
 *    database or the bus;
 *  - the TypeORM adapter reads rows typed (tools/boundaries/untyped-rows.ts).
 * Checks both package.json dependencies and the import statements of every non-test source file;
 * a package's test-support/ (helpers its tests share) may import only what its package.json declares,
 * and so may its spec files (plus the test toolchain the root declares), those under testing/ included.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { untypedRowViolations } from './boundaries/untyped-rows';
import { deepSliceImport, featureCycles, featureOf, repositoryInjections } from './boundaries/layer-rules';
import { appDependencies, appImports, untypedTokens } from './boundaries/wiring-rules';

const root = resolve(__dirname, '..', '..');
const violations: string[] = [];

/** Third-party code the domain may use: pure functions and data, no I/O, clock or randomness. */
const DOMAIN_LIBRARIES = new Set([
  'libphonenumber-js', // telephone numbering plans (parsing, national formats): data no one should hand-maintain
  'ipaddr.js', // IP address parsing and CIDR matching for the outbound target policy: pure functions, no I/O
]);

/** What the voice agent may use of ours, and the stores it must never touch directly. */
// `client`: the generated API client, the agent's way to the control plane's runtime routes.
const VOICE_AGENT_INTERNAL = new Set(['domain', 'application', 'adapter-livekit', 'client']);
const STORE_LIBRARIES = new Set(['typeorm', 'pg', 'amqplib', '@electric-sql/pglite']);

/** `libphonenumber-js/max` → `libphonenumber-js`, `@scope/pkg/x` → `@scope/pkg`. */
const packageOf = (spec: string): string =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

type Kind = 'domain' | 'application' | 'adapter' | 'contract-tests' | 'composition' | 'app';

function kindOf(pkg: string): Kind {
  if (pkg === 'domain') return 'domain';
  if (pkg === 'application') return 'application';
  if (pkg === 'contract-tests') return 'contract-tests';
  if (pkg === 'composition') return 'composition';
  if (pkg.startsWith('adapter-')) return 'adapter';
  return 'app';
}

function allowedInternal(pkg: string, kind: Kind, dep: string): boolean {
  switch (kind) {
    case 'domain':
      return false;
    case 'application':
      return dep === 'domain';
    case 'adapter':
      return dep === 'domain' || dep === 'application';
    case 'contract-tests':
      return dep !== pkg;
    case 'composition':
      return dep === 'domain' || dep === 'application' || (dep.startsWith('adapter-') && dep !== 'adapter-fakes');
    case 'app':
      return pkg !== 'voice-agent' || VOICE_AGENT_INTERNAL.has(dep);
  }
}

function isFolder(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (full.endsWith('.ts') && !full.endsWith('.spec.ts')) out.push(full);
  }
  return out;
}

/** Imports between the feature folders of the domain and of the application, per package. */
const featureEdges = new Map<string, Map<string, Set<string>>>();

const importPattern = /(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;

/** The layers, and the test support that keeps their rules: the fakes are an adapter, contract-tests its own kind. */
const layered = [
  ...['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group)).map((pkg) => ({ group, pkg, dir: join(root, group, pkg) })),
  ),
  { group: 'testing', pkg: 'adapter-fakes', dir: join(root, 'testing', 'fakes') },
  { group: 'testing', pkg: 'contract-tests', dir: join(root, 'testing', 'contract-tests') },
];

for (const { group, pkg, dir } of layered) {
  const kind: Kind = group === 'apps' ? 'app' : kindOf(pkg);
  const at = relative(root, dir);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const deps = Object.keys(manifest.dependencies ?? {});
  checkTestSupport(at, pkg, dir, new Set([...deps, ...Object.keys(manifest.devDependencies ?? {})]));

  for (const dep of deps) {
    if (dep.startsWith('@voiceplane/')) {
      const name = dep.slice('@voiceplane/'.length);
      if (!allowedInternal(pkg, kind, name)) violations.push(`${at}/package.json depends on ${dep}`);
    } else if (kind === 'application' || (kind === 'domain' && !DOMAIN_LIBRARIES.has(dep))) {
      violations.push(`${at}/package.json depends on third-party ${dep}`);
    } else if (pkg === 'voice-agent' && STORE_LIBRARIES.has(dep)) {
      violations.push(
        `${at}/package.json depends on ${dep} (the voice agent talks to the control plane only over HTTP)`,
      );
    }
  }

  for (const file of sourceFiles(join(dir, 'src'))) {
    const rel = relative(root, file);
    const text = readFileSync(file, 'utf8');
    if (pkg === 'adapter-http') violations.push(...repositoryInjections(rel, text));
    for (const m of text.matchAll(importPattern)) {
      const spec = m[1];
      if (spec.startsWith('.')) {
        const target = resolve(file, '..', spec);
        if (!target.startsWith(dir + sep)) violations.push(`${rel} reaches outside its package: ${spec}`);
        else if (kind === 'domain' || kind === 'application') {
          // An import of a folder is an import of its index.ts.
          const module = isFolder(target) ? join(target, 'index') : target.replace(/\.ts$/, '');
          const [from, to] = [relative(join(dir, 'src'), file), relative(join(dir, 'src'), module)];
          noteFeatureEdge(pkg, from, to);
          if (kind === 'application' && deepSliceImport(from, to))
            violations.push(`${rel} imports ${spec}, a file inside another slice (import the slice's index.ts)`);
        }
      } else if (spec.startsWith('@voiceplane/')) {
        const name = spec.slice('@voiceplane/'.length).split('/')[0];
        if (!allowedInternal(pkg, kind, name)) violations.push(`${rel} imports ${spec}`);
      } else if (pkg === 'voice-agent' && STORE_LIBRARIES.has(packageOf(spec))) {
        violations.push(`${rel} imports ${spec} (the voice agent talks to the control plane only over HTTP)`);
      } else if (kind === 'domain' || kind === 'application') {
        const builtinOk = kind === 'application' && /^node:(crypto|util)$/.test(spec);
        const libraryOk = kind === 'domain' && DOMAIN_LIBRARIES.has(packageOf(spec));
        if (!builtinOk && !libraryOk) violations.push(`${rel} imports ${spec}`);
      }
    }
    if (kind !== 'app' && /process\.env/.test(text)) violations.push(`${rel} reads process.env (only apps may)`);
    if (kind === 'domain') {
      if (/\bDate\.now\(|new Date\(\s*\)|Math\.random\(/.test(text))
        violations.push(`${rel} reads the clock or randomness`);
      // Asynchronous code, not the word: an async function, method or arrow, or an await.
      if (/\basync\s+(function\b|\(|[A-Za-z_$][\w$]*\s*(\(|=>))|\bawait\s/.test(text))
        violations.push(`${rel} is asynchronous`);
      if (/^\s*@[A-Za-z]+\(/m.test(text)) violations.push(`${rel} uses decorators`);
    }
  }
}

checkWiring();
checkSpecs();

/**
 * Spec files are held to their package's manifest too: a spec imports what its package declares
 * (development dependencies included), the test toolchain the root declares (jest, supertest,
 * `@voiceplane/test-env`), node's built-ins and its own package; relative imports stay inside it.
 */
function checkSpecs(): void {
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    devDependencies?: Record<string, string>;
  };
  const toolchain = Object.keys(rootManifest.devDependencies ?? {});
  const workspacePackages = [
    ...['packages', 'apps'].flatMap((group) =>
      readdirSync(join(root, group)).map((pkg) => ({
        dir: join(root, group, pkg),
        scan: join(root, group, pkg, 'src'),
      })),
    ),
    // What proves rather than ships: acceptance suites, contract suites, fakes, stand-ins, test-env.
    ...readdirSync(join(root, 'testing')).map((pkg) => ({
      dir: join(root, 'testing', pkg),
      scan: join(root, 'testing', pkg),
    })),
    { dir: join(root, 'tools'), scan: join(root, 'tools') },
  ];
  for (const { dir, scan } of workspacePackages) {
    const manifestPath = relative(root, join(dir, 'package.json'));
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      name: string;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    const declared = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.devDependencies ?? {}),
      ...toolchain,
      manifest.name,
    ]);
    const inside = (path: string) => path.startsWith(dir + sep);
    for (const file of specFiles(scan).filter(inside)) {
      const rel = relative(root, file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(importPattern)) {
        const spec = m[1];
        // A module written as a fixture inside a double-quoted string is not an import of the spec.
        const lineBefore = text.slice(text.lastIndexOf('\n', m.index) + 1, m.index);
        if ((lineBefore.match(/"/g) ?? []).length % 2 === 1) continue;
        if (spec.startsWith('.')) {
          if (!inside(resolve(file, '..', spec))) violations.push(`${rel} reaches outside its package: ${spec}`);
        } else if (!spec.startsWith('node:') && !declared.has(packageOf(spec)) && !isBuiltin(spec)) {
          violations.push(`${rel} imports ${spec}, which ${manifestPath} does not declare`);
        }
      }
    }
  }
}

function specFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...specFiles(full));
    else if (full.endsWith('.spec.ts')) out.push(full);
  }
  return out;
}

/**
 * Test helpers are code too: each package they import is declared in the package's manifest
 * (a development dependency is enough), and they stay inside their package.
 */
function checkTestSupport(at: string, pkg: string, dir: string, declared: ReadonlySet<string>): void {
  const supportDir = join(dir, 'test-support');
  if (!existsSync(supportDir)) return;
  for (const file of sourceFiles(supportDir)) {
    const rel = relative(root, file);
    for (const m of readFileSync(file, 'utf8').matchAll(importPattern)) {
      const spec = m[1];
      if (spec.startsWith('.')) {
        if (!resolve(file, '..', spec).startsWith(dir + sep))
          violations.push(`${rel} reaches outside its package: ${spec}`);
      } else if (
        !spec.startsWith('node:') &&
        !declared.has(packageOf(spec)) &&
        packageOf(spec) !== `@voiceplane/${pkg}`
      ) {
        violations.push(`${rel} imports ${spec}, which ${at}/package.json does not declare`);
      }
    }
  }
}
for (const [pkg, edges] of featureEdges) {
  for (const cycle of featureCycles(edges))
    violations.push(`packages/${pkg}/src feature folders import each other: ${cycle}`);
}

function noteFeatureEdge(pkg: string, from: string, to: string): void {
  const [a, b] = [featureOf(from), featureOf(to)];
  if (a === null || b === null || a === b) return;
  const edges = featureEdges.get(pkg) ?? new Map<string, Set<string>>();
  featureEdges.set(pkg, edges);
  edges.set(a, (edges.get(a) ?? new Set()).add(b));
}

/** Apps are leaves and DI identifiers are typed: every TypeScript file, tests included, and every manifest. */
function checkWiring(): void {
  const apps = readdirSync(join(root, 'apps'));
  const manifests = [
    ...['packages', 'apps'].flatMap((group) =>
      readdirSync(join(root, group)).map((pkg) => join(group, pkg, 'package.json')),
    ),
    ...readdirSync(join(root, 'testing')).map((pkg) => join('testing', pkg, 'package.json')),
    join('tools', 'package.json'),
  ];
  for (const manifest of manifests) {
    const { dependencies } = JSON.parse(readFileSync(join(root, manifest), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    violations.push(...appDependencies(manifest, Object.keys(dependencies ?? {}), apps));
  }
  // The rules' own tests hold forbidden lines as fixtures.
  const fixtures = join(root, 'tools', 'boundaries') + sep;
  for (const file of typeScriptFiles(root).filter((f) => !f.startsWith(fixtures))) {
    const rel = relative(root, file);
    const text = readFileSync(file, 'utf8');
    violations.push(...appImports(rel, text, apps));
    const source = /^(packages|apps)[\\/][^\\/]+[\\/]src[\\/]/.test(rel) && !rel.endsWith('.spec.ts');
    if (source) violations.push(...untypedTokens(rel, text));
    violations.push(...untypedRowViolations(rel, text));
  }
}

function typeScriptFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...typeScriptFiles(full));
    else if (full.endsWith('.ts') && !full.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

if (violations.length > 0) {
  console.error(`Boundary check failed (${violations.length}):\n - ${violations.join('\n - ')}`);
  process.exit(1);
}
console.log('Boundary check passed.');
