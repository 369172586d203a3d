import { Ctor, FieldSpec, registerField } from './field-spec';

type Options<K extends FieldSpec['kind']> = Omit<Extract<FieldSpec, { kind: K }>, 'kind'>;

function field(spec: FieldSpec): PropertyDecorator {
  return (target, key) => registerField(target.constructor, String(key), spec);
}

export const Str = (o: Options<'string'> = {}) => field({ kind: 'string', ...o });
export const Int = (o: Options<'integer'> = {}) => field({ kind: 'integer', ...o });
export const Num = (o: Options<'number'> = {}) => field({ kind: 'number', ...o });
export const Bool = (o: Options<'boolean'> = {}) => field({ kind: 'boolean', ...o });
/** Positive integer id; a string of digits is accepted. */
export const Id = (o: Options<'id'> = {}) => field({ kind: 'id', ...o });
/** Array of ids; duplicates are removed. */
export const Ids = (o: Options<'ids'> = {}) => field({ kind: 'ids', ...o });
export const Obj = (o: Options<'object'> = {}) => field({ kind: 'object', ...o });
export const Arr = (items: Ctor | FieldSpec | undefined, o: Omit<Options<'array'>, 'items'> = {}) => field({ kind: 'array', items, ...o });
export const Any = (o: Options<'any'> = {}) => field({ kind: 'any', ...o });
