import { cursorPage } from './cursor-page';

// Items are their own positions; the list's order is descending ids (newest first).
const position = (id: number) => ({ id });

describe('cursorPage', () => {
  it('first page: a next cursor only when the extra item shows the list goes on', () => {
    expect(cursorPage([9, 8, 7], null, 2, position)).toEqual({ items: [9, 8], next: { id: 8 }, prev: null });
    expect(cursorPage([9, 8], null, 2, position)).toEqual({ items: [9, 8], next: null, prev: null });
  });

  it('after a next cursor: a prev cursor before the first item, a next one while more follow', () => {
    expect(cursorPage([7, 6, 5], { id: 8 }, 2, position)).toEqual({
      items: [7, 6],
      next: { id: 6 },
      prev: { id: 7, before: true },
    });
    expect(cursorPage([7], { id: 8 }, 2, position)).toEqual({ items: [7], next: null, prev: { id: 7, before: true } });
    expect(cursorPage([], { id: 1 }, 2, position)).toEqual({ items: [], next: null, prev: null });
  });

  it('before a prev cursor: read nearest first, handed back in list order; prev only while more precede', () => {
    expect(cursorPage([8, 9, 10], { id: 7, before: true }, 2, position)).toEqual({
      items: [9, 8],
      next: { id: 8 },
      prev: { id: 9, before: true },
    });
    expect(cursorPage([8, 9], { id: 7, before: true }, 2, position)).toEqual({
      items: [9, 8],
      next: { id: 8 },
      prev: null,
    });
  });
});
