import { FieldErrors } from '@voiceplane/domain';
import { ValidationError } from 'class-validator';
import { itemHolders } from './decorators';
import { declaredFields } from './dto-metadata';
import { displayName, fill } from './messages';

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

function collect(failures: ValidationError[], prefix: string, errors: FieldErrors): void {
  for (const failure of inDeclaredOrder(failures)) {
    // The holder of a scalar item stands for the item itself.
    const key = itemHolders.has(failure.target!.constructor) ? prefix.slice(0, -1) : prefix + failure.property;
    const messages = failure.constraints ? Object.values(failure.constraints) : [];
    if (messages.length > 0) errors[key] = [fill(messages[0], { field: displayName(key) })];
    if (failure.children?.length) collect(failure.children, `${key}.`, errors);
  }
}

function inDeclaredOrder(failures: ValidationError[]): ValidationError[] {
  const target = failures[0]?.target;
  if (failures.length < 2 || !target || Array.isArray(target)) return failures;
  const { order } = declaredFields(target.constructor);
  return [...failures].sort((a, b) => (order.get(a.property) ?? 0) - (order.get(b.property) ?? 0));
}
