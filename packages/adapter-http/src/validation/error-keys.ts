import { FieldErrors } from '@voiceplane/domain';
import { ValidationError, validateSync } from 'class-validator';
import { ITEM_FAILED, ItemRules } from './decorators';
import { declaredFields } from './dto-metadata';
import { displayName, fill } from './messages';
import { VALIDATE } from './options';

/**
 * class-validator's error tree as the 422 `errors` object: one message per field (the first
 * constraint that failed), array items under dotted keys (`headers.0.name`, CONTRACT D1), fields
 * in declaration order.
 */
export function fieldErrors(failures: ValidationError[], prefix: string): FieldErrors {
  const errors: FieldErrors = {};
  collect(failures, prefix, errors);
  return errors;
}

function firstMessage(failure: ValidationError): string | undefined {
  return failure.constraints ? Object.values(failure.constraints)[0] : undefined;
}

function collect(failures: ValidationError[], prefix: string, errors: FieldErrors): void {
  for (const failure of inDeclaredOrder(failures)) {
    const key = prefix + failure.property;
    const message = firstMessage(failure);
    if (message === ITEM_FAILED) itemErrors(failure, key, errors);
    else if (message !== undefined) errors[key] = [fill(message, { field: displayName(key) })];
    if (failure.children?.length) collect(failure.children, `${key}.`, errors);
  }
}

/** A scalar item failed the one-pass check: the holder class names each failing item and its message. */
function itemErrors(failure: ValidationError, key: string, errors: FieldErrors): void {
  const { holder } = Object.values(failure.contexts!)[0] as ItemRules;
  const items = (failure.target as Record<string, unknown[]>)[failure.property];
  items.forEach((value, i) => {
    const [problem] = validateSync(Object.assign(new holder(), { value }), VALIDATE);
    const message = problem && firstMessage(problem);
    if (message !== undefined) errors[`${key}.${i}`] = [fill(message, { field: displayName(`${key}.${i}`) })];
  });
}

function inDeclaredOrder(failures: ValidationError[]): ValidationError[] {
  const target = failures[0]?.target;
  if (failures.length < 2 || !target || Array.isArray(target)) return failures;
  const { order } = declaredFields(target.constructor);
  return [...failures].sort((a, b) => (order.get(a.property) ?? 0) - (order.get(b.property) ?? 0));
}
