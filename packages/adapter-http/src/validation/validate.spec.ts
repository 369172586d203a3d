import { Bool, Id, Int, Num, Obj, Str } from './decorators';
import { Arr, Ids } from './lists';
import { validateDto } from './validate';

class Item {
  @Str({ required: true, max: 64, pattern: /^[a-z_]+$/, messages: { pattern: 'Names are lower-case words.' } })
  name!: string;
  @Bool() required?: boolean;
}

class Body {
  @Str({ required: true, max: 10 }) name!: string;
  @Str({ nullable: true, max: 5 }) nickname?: string | null;
  @Str({ enum: ['a', 'b'] }) kind?: string;
  @Str({ trim: false, min: 3 }) secret?: string;
  @Str({ upper: true, enum: ['GET', 'POST'] }) method?: string;
  @Int({ min: 1, max: 30 }) timeout?: number;
  @Num({ min: 0.7, max: 1.2, messages: { between: 'Speed must be between 0.7 and 1.2.' } }) speed?: number;
  @Bool() flag?: boolean;
  @Id({ nullable: true }) folder_id?: number | null;
  @Ids({ max: 3 }) label_ids?: number[];
  @Obj() variables?: Record<string, unknown>;
  @Arr(Item, { max: 2 }) schema?: Item[];
}

describe('validateDto (coercion and messages)', () => {
  const ok = (input: object, partial = false) => {
    const r = validateDto(Body, input, { partial });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return { ...r.value };
  };
  const errors = (input: unknown, partial = false) => {
    const r = validateDto(Body, input, { partial });
    if (r.ok) throw new Error('expected errors');
    return r.errors;
  };

  it('trims strings, keeps untrimmed fields as sent, upper-cases where asked', () => {
    expect(ok({ name: '  x  ', secret: '  pw ', method: 'post' })).toEqual({
      name: 'x',
      secret: '  pw ',
      method: 'POST',
    });
  });

  it('coerces digit strings, numeric strings and boolean spellings', () => {
    expect(
      ok({ name: 'x', timeout: '5', speed: '1.1', folder_id: '789', label_ids: ['1', 2, '2'], flag: '0' }),
    ).toEqual({ name: 'x', timeout: 5, speed: 1.1, folder_id: 789, label_ids: [1, 2], flag: false });
    for (const [raw, expected] of [
      [true, true],
      [1, true],
      ['1', true],
      ['true', true],
      [false, false],
      [0, false],
      ['false', false],
    ] as const) {
      expect(ok({ name: 'x', flag: raw }).flag).toBe(expected);
    }
  });

  it('treats "" as null on nullable fields and as absent on required ones', () => {
    expect(ok({ name: 'x', nickname: '  ' })).toEqual({ name: 'x', nickname: null });
    expect(errors({ name: '' })).toEqual({ name: ['The name field is required.'] });
  });

  it('keeps absent keys absent so partial updates can tell them from null', () => {
    expect(ok({ nickname: null }, true)).toEqual({ nickname: null });
    expect(errors({ name: '' }, true)).toEqual({ name: ['The name field must have a value.'] });
    expect(errors({ name: null }, true)).toEqual({ name: ['The name field must have a value.'] });
  });

  it('reports every failing field with catalogue messages', () => {
    expect(
      errors({
        name: 'x'.repeat(11),
        kind: 'c',
        secret: 'ab',
        timeout: 31,
        speed: 2,
        flag: 'yes',
        folder_id: 'abc',
        label_ids: 'nope',
        variables: [],
        nickname: 7,
      }),
    ).toEqual({
      name: ['The name may not be greater than 10 characters.'],
      nickname: ['The nickname must be a string.'],
      kind: ['The selected kind is invalid.'],
      secret: ['The secret must be at least 3 characters.'],
      timeout: ['The timeout must be between 1 and 30.'],
      speed: ['Speed must be between 0.7 and 1.2.'],
      flag: ['The flag field must be true or false.'],
      folder_id: ['The folder id must be an integer.'],
      label_ids: ['The label ids must be an array.'],
      variables: ['The variables must be an object.'],
    });
  });

  it('rejects non-integers for integer fields and oversize id lists', () => {
    expect(errors({ name: 'x', timeout: 1.5, label_ids: [1, 2, 3, 4] })).toEqual({
      timeout: ['The timeout must be an integer.'],
      label_ids: ['The label ids may not have more than 3 items.'],
    });
    expect(errors({ name: 'x', label_ids: [1, 'x'] })).toEqual({
      'label_ids.1': ['The label_ids.1 must be an integer.'],
    });
  });

  it('validates array items with dotted keys kept literal', () => {
    expect(errors({ name: 'x', schema: [{ name: 'ok' }, { name: 'Bad-Name', required: 'maybe' }, {}] })).toEqual({
      schema: ['The schema may not have more than 2 items.'],
    });
    expect(errors({ name: 'x', schema: [{ name: 'ok' }, { name: 'Bad', required: 'maybe' }] })).toEqual({
      'schema.1.name': ['Names are lower-case words.'],
      'schema.1.required': ['The schema.1.required field must be true or false.'],
    });
    expect(errors({ name: 'x', schema: [{}] })).toEqual({ 'schema.0.name': ['The schema.0.name field is required.'] });
    expect(errors({ name: 'x', schema: [5] })).toEqual({ 'schema.0': ['The schema.0 must be an object.'] });
  });

  it.each([[null], [[]], ['str'], [3]])('a body that is not an object (%p) is keyed "body"', (input) => {
    expect(errors(input)).toEqual({ body: ['The request body must be a JSON object.'] });
  });
});
