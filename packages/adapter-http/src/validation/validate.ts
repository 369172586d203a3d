import { FieldErrors } from '@voiceplane/domain';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidatorOptions } from 'class-validator';
import { isPlainObject, TRANSFORM } from './coercion';
import { itemHolders, partialBodies, uniqueItemHolders } from './decorators';
import { declaredFields } from './dto-metadata';
import { fieldErrors } from './error-keys';
import { Ctor } from './field-spec';

export { isPlainObject } from './coercion';

export interface ValidateOptions {
  /** Partial update: nothing is required, and `""`/`null` on a non-nullable field is an error. */
  readonly partial?: boolean;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

const NOT_OBJECT = 'The request body must be a JSON object.';

const VALIDATE: ValidatorOptions = {
  // Absent and null fields are judged by the presence rules alone (IsDefined runs regardless).
  skipMissingProperties: true,
  // One message per field (CONTRACT §1.6).
  stopAtFirstError: true,
  forbidUnknownValues: false,
  validationError: { target: true, value: false },
};

/**
 * class-transformer coerces `input` into the DTO (CONTRACT §1.3), class-validator checks it with
 * the catalogue messages (§1.6). The value holds only the keys that were sent (absent ones are
 * undefined), so partial updates can tell "absent" from "null".
 */
export function validateDto<T>(dto: Ctor<T>, input: unknown, options: ValidateOptions = {}, prefix = ''): Validated<T> {
  if (!isPlainObject(input)) {
    const key = prefix ? prefix.slice(0, -1) : 'body';
    return { ok: false, errors: { [key]: [prefix ? `The ${key} must be an object.` : NOT_OBJECT] } };
  }
  const body = plainToInstance(dto, input, TRANSFORM) as T & object;
  if (options.partial) partialBodies.add(body);
  const failures = validateSync(body, VALIDATE);
  if (failures.length > 0) return { ok: false, errors: fieldErrors(failures, prefix) };
  return { ok: true, value: settled(body) };
}

/** An empty value on a field that cannot hold null was skipped as absent; scalar items leave their holders. */
function settled<T extends object>(body: T): T {
  const { nullable } = declaredFields(body.constructor);
  const fields = body as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) {
    if (value === null && !nullable.has(key)) fields[key] = undefined;
    else if (Array.isArray(value) && value.length > 0 && typeof value[0] === 'object' && value[0] !== null) fields[key] = settledItems(value);
  }
  return body;
}

function settledItems(items: unknown[]): unknown[] {
  const kind = (items[0] as object).constructor;
  if (itemHolders.has(kind)) {
    const values = items.map((item) => (item as { value: unknown }).value);
    return uniqueItemHolders.has(kind) ? [...new Set(values)] : values;
  }
  return declaredFields(kind).order.size > 0 ? items.map((item) => settled(item as object)) : items;
}
