import { appDependencies, appImports, TOKEN_HELPER, untypedTokens } from './wiring-rules';

const APPS = ['api', 'worker', 'cli'];

describe('wiring rules', () => {
  describe('an app is imported by nothing', () => {
    it('rejects an import of an app, in any form', () => {
      const text = [
        "import { composeApi } from '@voiceplane/api';",
        "import type { RunningWorker } from '@voiceplane/worker/dist/worker';",
        "const cli = require('@voiceplane/cli');",
        "await import('@voiceplane/api');",
      ].join('\n');
      expect(appImports('apps/worker/src/main.ts', text, APPS)).toHaveLength(4);
    });

    it('allows packages, including the composition the apps share', () => {
      const text =
        "import { composeApi } from '@voiceplane/composition';\nimport { TOKENS } from '@voiceplane/application';\nimport x from '@voiceplane/apiary';";
      expect(appImports('apps/worker/src/main.ts', text, APPS)).toEqual([]);
    });

    it('rejects a dependency on an app', () => {
      expect(
        appDependencies('apps/worker/package.json', ['@voiceplane/composition', '@voiceplane/api', 'pino'], APPS),
      ).toEqual(['apps/worker/package.json depends on the app @voiceplane/api']);
    });
  });

  describe('a DI identifier carries its type', () => {
    const file = 'packages/adapter-x/src/wiring.ts';

    it('rejects registry symbols', () => {
      expect(untypedTokens(file, "export const TOKENS = {\n  Clock: Symbol.for('voiceplane.Clock'),\n};")).toEqual([
        `${file}:2 makes a registry symbol (Symbol.for): use token<T>() from @voiceplane/application`,
      ]);
    });

    it('rejects a symbol other modules can reach', () => {
      for (const text of [
        "export const LOGGER = Symbol('Logger');",
        "const T = { Logger: Symbol('Logger') };",
        "c.bind(Symbol('Logger'));",
      ]) {
        expect(untypedTokens(file, text)).toHaveLength(1);
      }
    });

    it('allows a module-private symbol used as a value, but not as a DI identifier', () => {
      expect(untypedTokens(file, "const ABSENT = Symbol('absent');\nif (value === ABSENT) return;")).toEqual([]);
      expect(
        untypedTokens(
          file,
          "const LOGGER: symbol = Symbol('Logger');\nclass A { constructor(@inject(LOGGER) l: unknown) {} }\nc.bind(LOGGER).toConstantValue(1);",
        ),
      ).toEqual([
        `${file}:2 uses the untyped symbol LOGGER as a DI identifier: use token<T>() from @voiceplane/application`,
        `${file}:3 uses the untyped symbol LOGGER as a DI identifier: use token<T>() from @voiceplane/application`,
      ]);
    });

    it('rejects strings as identifiers', () => {
      expect(
        untypedTokens(file, 'class A { constructor(@inject(\'Clock\') c: unknown) {} }\ncontainer.bind("Clock");'),
      ).toHaveLength(2);
    });

    it('allows typed tokens, classes, comments and the token helper itself', () => {
      const text = [
        '// Symbol.for would make an untyped token',
        '/* export const X = Symbol("x") */',
        'class A { constructor(@inject(TOKENS.Clock) c: Clock, @inject(SandboxFaults) f: SandboxFaults) {} }',
        "c.bind(CALL_TOKENS.MakeCall).toConstantValue(makeCall); app.get('/x', handler);",
      ].join('\n');
      expect(untypedTokens(file, text)).toEqual([]);
      expect(
        untypedTokens(
          TOKEN_HELPER,
          'export function token<T>(name: string): Token<T> { return Symbol(name) as Token<T>; }',
        ),
      ).toEqual([]);
    });
  });
});
