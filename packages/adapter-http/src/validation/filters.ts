import { FieldErrors } from '@voiceplane/domain';
import { declaredFields } from './dto-metadata';
import { displayName } from './messages';

/** Paging parameters are known on every list, whichever kind of paging it has (or none). */
const PAGING = new Set(['page', 'per_page', 'cursor']);

const FILTER_LISTS = new WeakSet<Function>();

/**
 * Marks the query of a list route that takes filters. Such a list refuses a parameter it does not
 * know (422 naming it): a filter it silently dropped would answer with more than was asked for.
 * Every other query and body ignores unknown keys.
 */
export function ListFilters(): ClassDecorator {
  return (dto) => {
    FILTER_LISTS.add(dto);
  };
}

export function isFilterList(dto: Function): boolean {
  for (let c = dto; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) if (FILTER_LISTS.has(c)) return true;
  return false;
}

/** The parameters a filtered list does not know, each with its refusal. */
export function unknownFilters(dto: Function, input: Record<string, unknown>): FieldErrors {
  const { order } = declaredFields(dto);
  const errors: FieldErrors = {};
  for (const key of Object.keys(input)) {
    if (order.has(key) || PAGING.has(key)) continue;
    Object.defineProperty(errors, key, {
      value: [`The ${displayName(key)} parameter is not supported.`],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return errors;
}
