/**
 * A deep copy of plain data (objects, arrays, Dates), as rows read back from a database are: a
 * caller that changes what it got cannot change the store. Not `structuredClone`: its objects come
 * from another realm under jest, where `instanceof Date` then fails.
 */
export function copy<T>(value: T): T {
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Array.isArray(value)) return value.map(copy) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)])) as T;
  }
  return value;
}
