/**
 * Preloaded into a contender's process (`node -r …/statement-census.js`): counts what the process
 * asks of PostgreSQL through `pg` — statements (by text), the time each waited for its answer, and
 * the time a pool checkout waited for a free connection. On SIGUSR2 the totals so far are written
 * to STATEMENT_CENSUS_FILE as JSON, so the bench can take the difference over a slice. Wraps every
 * copy of `pg` the process loads (TypeORM's and the bench's may be two).
 */
import { renameSync, writeFileSync } from 'node:fs';
import Module from 'node:module';

interface Census {
  statements: number;
  statementMs: number;
  checkouts: number;
  checkoutMs: number;
  byText: Record<string, number>;
}

const census: Census = { statements: 0, statementMs: 0, checkouts: 0, checkoutMs: 0, byText: {} };
const patched = new WeakSet<object>();

type Callback = (...args: unknown[]) => void;
interface PgModule {
  Client: { prototype: { query: (...args: unknown[]) => unknown } };
  Pool: { prototype: { connect: (...args: unknown[]) => unknown } };
}

function textOf(config: unknown): string {
  const text = typeof config === 'string' ? config : ((config as { text?: string } | null)?.text ?? '?');
  return text.replace(/\s+/g, ' ').slice(0, 90);
}

function patch(pg: PgModule): void {
  if (!pg?.Client?.prototype || patched.has(pg.Client.prototype)) return;
  patched.add(pg.Client.prototype);
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function patchedQuery(this: unknown, ...args: unknown[]) {
    const started = performance.now();
    const text = textOf(args[0]);
    census.statements += 1;
    census.byText[text] = (census.byText[text] ?? 0) + 1;
    const done = () => {
      census.statementMs += performance.now() - started;
    };
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      args[args.length - 1] = (...r: unknown[]) => {
        done();
        (last as Callback)(...r);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args) as Promise<unknown> | undefined;
    if (result && typeof result.then === 'function') result.then(done, done);
    return result;
  };
  const connect = pg.Pool.prototype.connect;
  pg.Pool.prototype.connect = function patchedConnect(this: unknown, ...args: unknown[]) {
    const started = performance.now();
    census.checkouts += 1;
    const done = () => {
      census.checkoutMs += performance.now() - started;
    };
    const cb = args[0];
    if (typeof cb === 'function')
      return connect.call(this, (...r: unknown[]) => {
        done();
        (cb as Callback)(...r);
      });
    const result = connect.apply(this, args) as Promise<unknown>;
    result.then(done, done);
    return result;
  };
}

const load = (Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load;
(Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load = function censusLoad(
  request: string,
  ...rest: unknown[]
) {
  const loaded = load.call(this, request, ...rest);
  if (request === 'pg') patch(loaded as PgModule);
  return loaded;
};

process.on('SIGUSR2', () => {
  const file = process.env.STATEMENT_CENSUS_FILE;
  if (!file) return;
  // Written aside and renamed, so the bench never reads half a file.
  writeFileSync(`${file}.part`, JSON.stringify(census));
  renameSync(`${file}.part`, file);
});
