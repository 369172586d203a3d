import { FieldErrors } from '@voiceplane/domain';
import { ValidationError } from 'class-validator';
import { Detailed, DETAILED } from './field';
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

function firstMessage(failure: ValidationError): string | undefined {
  return failure.constraints ? Object.values(failure.constraints)[0] : undefined;
}

function collect(failures: ValidationError[], prefix: string, errors: FieldErrors): void {
  for (const failure of inDeclaredOrder(failures)) {
    const key = prefix + failure.property;
    const message = firstMessage(failure);
    if (message === DETAILED) Object.assign(errors, detailsOf(failure, key));
    else if (message !== undefined) errors[key] = [fill(message, { field: displayName(key) })];
    if (failure.children?.length) collect(failure.children, `${key}.`, errors);
  }
}

/** A rule over the parts of a value (items, entries) failed: its context names the parts. */
function detailsOf(failure: ValidationError, key: string): FieldErrors {
  const { details } = Object.values(failure.contexts!)[0] as Detailed;
  return details((failure.target as Record<string, unknown>)[failure.property], key);
}

function inDeclaredOrder(failures: ValidationError[]): ValidationError[] {
  const target = failures[0]?.target;
  if (failures.length < 2 || !target || Array.isArray(target)) return failures;
  const { order } = declaredFields(target.constructor);
  return [...failures].sort((a, b) => (order.get(a.property) ?? 0) - (order.get(b.property) ?? 0));
}
