import { deepSliceImport, featureCycles, featureOf, repositoryInjections } from './layer-rules';

describe('layer rules', () => {
  describe('the HTTP adapter injects no repository token', () => {
    const file = 'packages/adapter-http/src/controllers/x-controller.ts';

    it('rejects a repository token, from any tokens object or as a class', () => {
      const text = [
        'class X {',
        '  constructor(',
        '    @inject(TOKENS.CallRepository) private readonly calls: CallRepository,',
        '    @inject(AUTOMATION_TOKENS.DataTableRepository) tables: DataTableRepository,',
        '    @inject( UserRepository ) users: UserRepository,',
        '  ) {}',
        '}',
      ].join('\n');
      expect(repositoryInjections(file, text)).toEqual([
        `${file}:3 injects the repository token TOKENS.CallRepository (controllers call use cases, not repositories)`,
        `${file}:4 injects the repository token AUTOMATION_TOKENS.DataTableRepository (controllers call use cases, not repositories)`,
        `${file}:5 injects the repository token UserRepository (controllers call use cases, not repositories)`,
      ]);
    });

    it('allows use cases, queries and ports that are not repositories', () => {
      const text =
        '@inject(TOKENS.ManageDataTables) t: ManageDataTables, @inject(CheckConnection) c: CheckConnection, @inject(TOKENS.Clock) clock: Clock';
      expect(repositoryInjections(file, text)).toEqual([]);
    });
  });

  describe('feature folders do not import each other', () => {
    const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges).map(([k, v]) => [k, new Set(v)]));

    it('names the folder of a file under src/', () => {
      expect(featureOf('chatapp/tokens.ts')).toBe('chatapp');
      expect(featureOf('automations/steps/http-steps.ts')).toBe('automations');
      expect(featureOf('index.ts')).toBeNull();
    });

    it('finds a mutual import and a longer circle, each once', () => {
      expect(
        featureCycles(
          graph({ chatapp: ['conversations', 'common'], conversations: ['chatapp', 'common'], common: [] }),
        ),
      ).toEqual(['chatapp → conversations → chatapp']);
      expect(featureCycles(graph({ calls: ['chatapp'], chatapp: ['automations'], automations: ['calls'] }))).toEqual([
        'automations → calls → chatapp → automations',
      ]);
    });

    it('passes a graph without cycles', () => {
      expect(
        featureCycles(
          graph({
            chatapp: ['conversations', 'common'],
            conversations: ['common', 'ports'],
            ports: ['common'],
            common: [],
          }),
        ),
      ).toEqual([]);
    });
  });

  describe('application slices meet through their index.ts', () => {
    it('rejects an import of a file inside another slice, nested or not', () => {
      expect(deepSliceImport('account-events/bus-events.ts', 'calls/end-call')).toBe(true);
      expect(deepSliceImport('events/consumers/relay.ts', 'automations/steps/http-steps')).toBe(true);
      expect(deepSliceImport('folders/tokens.ts', 'common/token')).toBe(true);
    });

    it("allows the other slice's index, a file of its own slice and the package's root files", () => {
      expect(deepSliceImport('account-events/bus-events.ts', 'calls/index')).toBe(false);
      expect(deepSliceImport('automations/steps/http-steps.ts', 'automations/ports')).toBe(false);
      expect(deepSliceImport('index.ts', 'calls/end-call')).toBe(false);
      expect(deepSliceImport('calls/end-call.ts', 'tokens')).toBe(false);
    });
  });
});
