import { Page, PageRequest } from '@voiceplane/application';

/** One page of `items`, already in list order. */
export function pageOf<T>(items: readonly T[], page: PageRequest): Page<T> {
  const start = (page.page - 1) * page.perPage;
  return { items: items.slice(start, start + page.perPage), total: items.length };
}
