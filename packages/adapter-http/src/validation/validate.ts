import { FieldErrors, TargetUrlPolicy } from '@voiceplane/domain';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { isPlainObject } from './coercion';
import { targetPolicies } from './constraints';
import { partialBodies } from './field';
import { declaredFields } from './dto-metadata';
import { fieldErrors } from './error-keys';
import { Ctor } from './field-spec';
import { TRANSFORM, VALIDATE, VALIDATE_PARTIAL } from './options';
import { isFilterList, unknownFilters } from './filters';

export { isPlainObject } from './coercion';

export interface ValidateOptions {
  /** Partial update: nothing is required, and `""`/`null` on a non-nullable field is an error. */
  readonly partial?: boolean;
  /** Needed by bodies with outbound URLs (`target` fields). */
  readonly targetPolicy?: TargetUrlPolicy;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

const NOT_OBJECT = 'The request body must be a JSON object.';

/**
 * class-transformer coerces `input` into the DTO, class-validator checks it with
 * the catalogue messages. The value holds only the keys that were sent (absent ones are
 * undefined), so partial updates can tell "absent" from "null".
 */
export function validateDto<T>(dto: Ctor<T>, input: unknown, options: ValidateOptions = {}, prefix = ''): Validated<T> {
  if (!isPlainObject(input)) {
    const key = prefix ? prefix.slice(0, -1) : 'body';
    return { ok: false, errors: { [key]: [prefix ? `The ${key} must be an object.` : NOT_OBJECT] } };
  }
  const unknown = isFilterList(dto) ? unknownFilters(dto, input) : {};
  const body = plainToInstance(dto, input, TRANSFORM) as T & object;
  if (options.partial) partialBodies.add(body);
  if (options.targetPolicy) targetPolicies.set(body, options.targetPolicy);
  const failures = validateSync(body, options.partial ? VALIDATE_PARTIAL : VALIDATE);
  if (failures.length > 0) return { ok: false, errors: { ...fieldErrors(failures, body, prefix), ...unknown } };
  if (Object.keys(unknown).length > 0) return { ok: false, errors: unknown };
  return { ok: true, value: settled(body) };
}

function isDto(value: unknown): value is object {
  return value instanceof Object && declaredFields(value.constructor).order.size > 0;
}

/** Unknown keys go; an empty value on a field that cannot hold null was skipped as absent; ids lists lose repeats. */
function settled<T extends object>(body: T): T {
  const { order, nullable, unique } = declaredFields(body.constructor);
  const fields = body as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) {
    if (!order.has(key)) delete fields[key];
    else if (value === null && !nullable.has(key)) fields[key] = undefined;
    else if (unique.has(key) && Array.isArray(value)) fields[key] = [...new Set(value)];
    else if (Array.isArray(value) && value.some(isDto)) fields[key] = value.map((item: object) => settled(item));
    else if (isDto(value)) settled(value);
  }
  return body;
}
