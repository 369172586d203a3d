/**
 * The wiring rules of tools/check-boundaries, as functions of a file's text so
 * they can be tested without a repository around them.
 */

/** The one module allowed to make DI symbols: it gives each one the type it identifies. */
export const TOKEN_HELPER = 'packages/application/src/common/token.ts';

/**
 * Apps are leaves: no file anywhere (tests included) imports an app, and no package.json depends
 * on one. What the api and the worker share lives in packages/composition.
 */
export function appImports(file: string, text: string, apps: readonly string[]): string[] {
  const out: string[] = [];
  const names = apps.map((a) => `@voiceplane/${a}`);
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1];
    if (names.some((n) => spec === n || spec.startsWith(`${n}/`)))
      out.push(`${file} imports the app ${spec} (apps import packages, never each other)`);
  }
  return out;
}

/** The same for a package.json's dependencies. */
export function appDependencies(file: string, dependencies: readonly string[], apps: readonly string[]): string[] {
  return dependencies
    .filter((d) => apps.some((a) => d === `@voiceplane/${a}`))
    .map((d) => `${file} depends on the app ${d}`);
}

/**
 * A DI identifier must carry the type it identifies (`token<T>()` from @voiceplane/application),
 * or be a class. Outside the token helper this rejects, in a source file:
 *  - any `Symbol.for(…)`: a registry-wide key is exactly an untyped token;
 *  - any `Symbol(…)` other than a module-private constant (`const NAME = Symbol(…)`, not exported):
 *    an exported symbol, or one in an object or an argument, is an identifier for other modules;
 *  - a module-private symbol constant given to inject/multiInject/bind/rebind/get/getAll/isBound/unbind;
 *  - a string given to @inject/@multiInject or to bind/rebind/isBound/unbind.
 * Comments are ignored.
 */
export function untypedTokens(file: string, text: string): string[] {
  if (file.split('\\').join('/') === TOKEN_HELPER) return [];
  const code = withoutComments(text);
  const out: string[] = [];
  const at = (index: number) => `${file}:${code.slice(0, index).split('\n').length}`;

  for (const m of code.matchAll(/\bSymbol\.for\s*\(/g))
    out.push(`${at(m.index)} makes a registry symbol (Symbol.for): use token<T>() from @voiceplane/application`);

  const privateSymbols: string[] = [];
  for (const m of code.matchAll(/\bSymbol\s*\(/g)) {
    const line = code.slice(code.lastIndexOf('\n', m.index) + 1, m.index);
    const declared = /^\s*const\s+([A-Za-z_$][\w$]*)\s*(?::\s*symbol\s*)?=\s*$/.exec(line);
    if (declared) privateSymbols.push(declared[1]);
    else
      out.push(
        `${at(m.index)} makes a symbol other modules can use as a DI identifier: use token<T>() from @voiceplane/application`,
      );
  }
  for (const name of privateSymbols) {
    const use = new RegExp(
      `(?:@(?:inject|multiInject)|\\.(?:bind|rebind|get|getAll|getAsync|isBound|unbind))\\(\\s*${escape(name)}\\b`,
      'g',
    );
    for (const m of code.matchAll(use))
      out.push(
        `${at(m.index)} uses the untyped symbol ${name} as a DI identifier: use token<T>() from @voiceplane/application`,
      );
  }
  for (const m of code.matchAll(/(?:@(?:inject|multiInject)|\.(?:bind|rebind|isBound|unbind))\(\s*['"`]/g)) {
    out.push(`${at(m.index)} uses a string as a DI identifier: use token<T>() from @voiceplane/application`);
  }
  return out;
}

const IMPORT = /(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;

/** Blanks out comments, keeping line numbers (a `//` inside a string only hides the rest of that line). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

function escape(name: string): string {
  return name.replace(/\$/g, '\\$');
}
