import { ConversationCursor, CursorPage } from './ports';

/**
 * A page from what an adapter read: up to `perPage + 1` items starting at `cursor` and going in its
 * direction (towards the end of the list after a `next` cursor or none, towards its start before a
 * `prev` one), nearest first. The extra item only tells that the list goes on that way. The other
 * way, the list goes on whenever a cursor led here and the page holds anything.
 */
export function cursorPage<T>(
  read: readonly T[],
  cursor: ConversationCursor | null,
  perPage: number,
  positionOf: (item: T) => Omit<ConversationCursor, 'before'>,
): CursorPage<T> {
  const backwards = cursor?.before === true;
  const page = read.slice(0, perPage);
  const items = backwards ? page.reverse() : page;
  const more = read.length > perPage;
  const first = items[0];
  const last = items[items.length - 1];
  const goesOnAfter = backwards ? items.length > 0 : more;
  const goesOnBefore = backwards ? more : cursor !== null && items.length > 0;
  return {
    items,
    next: goesOnAfter ? positionOf(last) : null,
    prev: goesOnBefore ? { ...positionOf(first), before: true } : null,
  };
}
