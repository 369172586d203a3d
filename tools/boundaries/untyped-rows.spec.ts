import { untypedRows, untypedRowViolations } from './untyped-rows';

describe('typed rows', () => {
  it('counts untyped rows and untyped queries whose result is used', () => {
    const text = [
      'function toX(r: Record<string, unknown>) {}',
      'const rows = await this.db.query(`SELECT 1`);',
      'return this.db.one(`SELECT 1`);',
      '  const [a, b] = await Promise.all([this.db.query(`x`), m.query(`y`)]);',
    ].join('\n');
    expect(untypedRows(text)).toBe(5);
  });

  it('accepts typed queries, discarded results and comments', () => {
    const text = [
      'const rows = await this.db.query<Pick<UserRecord, "id">>(`SELECT id FROM users`);',
      '    await this.db.query(`UPDATE users SET disabled = true`);',
      '// an untyped .query( in a comment, or Record<string, unknown>',
    ].join('\n');
    expect(untypedRows(text)).toBe(0);
  });

  it('refuses any untyped row in an adapter file, and ignores records, migrations and specs', () => {
    const untyped = 'const r = await this.db.one(`SELECT 1`);';
    expect(untypedRowViolations('packages/adapter-typeorm/src/repositories/new-repository.ts', untyped)).toHaveLength(
      1,
    );
    expect(untypedRowViolations('packages/adapter-typeorm/src/records/x.ts', untyped)).toEqual([]);
    expect(untypedRowViolations('packages/adapter-typeorm/src/migrations/x.ts', untyped)).toEqual([]);
    expect(untypedRowViolations('packages/adapter-typeorm/src/repositories/x.int.spec.ts', untyped)).toEqual([]);
    expect(untypedRowViolations('packages/adapter-http/src/x.ts', untyped)).toEqual([]);
  });
});
