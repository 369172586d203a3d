import { Int } from './decorators';

/** `page` ≥ 1 (default 1), `per_page` 1–100 (default 15). */
export class PageQuery {
  @Int({ min: 1, description: 'Page number, from 1' }) page?: number;
  @Int({ min: 1, max: 100, description: 'Items per page, 1–100' }) per_page?: number;
}

export function pageOf(q: PageQuery): { page: number; perPage: number } {
  return { page: q.page ?? 1, perPage: q.per_page ?? 15 };
}
