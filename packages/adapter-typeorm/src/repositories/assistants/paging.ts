import { num } from '../rows';

/**
 * Page queries carry `count(*) OVER ()` so one round trip answers rows and total; only a page
 * past the end (no rows to carry it) needs the separate count.
 */
export async function totalOf(rows: Array<Record<string, unknown>>, count: () => Promise<{ n: string } | null>): Promise<number> {
  if (rows.length > 0) return num(rows[0].total);
  return num((await count())?.n);
}
