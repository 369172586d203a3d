import type { Database } from '../database';
/** PostgreSQL hands bigint and numeric back as strings; these turn them into JSON numbers. */
export const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
export const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string));

/** `SELECT count(*) AS n` (bigint: a string). */
export interface Count {
  n: string;
}

/** LIMIT/OFFSET for page-based lists. */
export function pageClause(
  page: { page: number; perPage: number },
  firstParam: number,
): { sql: string; params: number[] } {
  return {
    sql: `LIMIT $${firstParam} OFFSET $${firstParam + 1}`,
    params: [page.perPage, (page.page - 1) * page.perPage],
  };
}

/**
 * Runs `write` so that a failure `expected` recognises undoes only `write` (a savepoint), never the
 * caller's transaction, and answers `instead`: a losing insert of a taken name must not abort the
 * transaction a use case concludes in.
 */
export function unlessFails<T, U>(
  db: Database,
  write: () => Promise<T>,
  expected: (e: unknown) => boolean,
  instead: U,
): Promise<T | U> {
  return db.transaction(async () => {
    await db.query('SAVEPOINT guarded_write');
    try {
      const result = await write();
      await db.query('RELEASE SAVEPOINT guarded_write');
      return result;
    } catch (e) {
      if (!expected(e)) throw e;
      await db.query('ROLLBACK TO SAVEPOINT guarded_write');
      return instead;
    }
  });
}

/** Postgres unique_violation. */
export function isUniqueViolation(e: unknown): boolean {
  return (
    typeof e === 'object' &&
    e !== null &&
    ((e as { code?: string }).code === '23505' ||
      (e as { driverError?: { code?: string } }).driverError?.code === '23505')
  );
}
