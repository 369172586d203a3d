/** PostgreSQL hands bigint and numeric back as strings; these turn them into JSON numbers. */
export const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
export const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string));

/** `SELECT count(*) AS n` (bigint: a string). */
export interface Count {
  n: string;
}

/** LIMIT/OFFSET for page-based lists. */
export function pageClause(page: { page: number; perPage: number }, firstParam: number): { sql: string; params: number[] } {
  return { sql: `LIMIT $${firstParam} OFFSET $${firstParam + 1}`, params: [page.perPage, (page.page - 1) * page.perPage] };
}

/** Postgres unique_violation. */
export function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && ((e as { code?: string }).code === '23505' || (e as { driverError?: { code?: string } }).driverError?.code === '23505');
}
