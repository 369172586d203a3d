import { Count, num } from '../rows';

/** A page row's `count(*) OVER () AS total` (bigint: a string). */
export interface Counted {
  total: string;
}

/**
 * Page queries carry `count(*) OVER ()` so one round trip answers rows and total; only a page
 * past the end (no rows to carry it) needs the separate count.
 */
export async function totalOf(
  rows: ReadonlyArray<Partial<Record<keyof Counted, unknown>>>,
  count: () => Promise<Count | null>,
): Promise<number> {
  if (rows.length > 0) return num(rows[0].total);
  return num((await count())?.n);
}
