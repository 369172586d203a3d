import { FieldErrors } from '@voiceplane/domain';
import { ValidationError } from 'class-validator';
import { Detailed, DETAILED } from './field';
import { declaredFields } from './dto-metadata';
import { displayName, fill } from './messages';

/**
 * class-validator's error tree as the 422 `errors` object: one message per field (the first
 * constraint that failed), array items under dotted keys (`headers.0.name`), fields
 * in declaration order. The errors carry neither target nor value (class-validator need not copy
 * them): the walk follows the validated `body` alongside.
 */
export function fieldErrors(failures: ValidationError[], body: object, prefix: string): FieldErrors {
  const errors: FieldErrors = {};
  collect(failures, body as Record<string, unknown>, prefix, errors);
  return errors;
}

function firstMessage(failure: ValidationError): string | undefined {
  return failure.constraints ? Object.values(failure.constraints)[0] : undefined;
}

/** `holder` is the object (or array) whose properties (or items) `failures` are about. */
function collect(
  failures: ValidationError[],
  holder: Record<string, unknown>,
  prefix: string,
  errors: FieldErrors,
): void {
  for (const failure of inDeclaredOrder(failures, holder)) {
    const key = prefix + failure.property;
    const value = holder[failure.property];
    const message = firstMessage(failure);
    if (message === DETAILED) Object.assign(errors, detailsOf(failure, value, key));
    else if (message !== undefined) errors[key] = [fill(message, { field: displayName(key) })];
    if (failure.children?.length) collect(failure.children, value as Record<string, unknown>, `${key}.`, errors);
  }
}

/** A rule over the parts of a value (items, entries) failed: its context names the parts. */
function detailsOf(failure: ValidationError, value: unknown, key: string): FieldErrors {
  const { details } = Object.values(failure.contexts!)[0] as Detailed;
  return details(value, key);
}

function inDeclaredOrder(failures: ValidationError[], holder: object): ValidationError[] {
  if (failures.length < 2 || Array.isArray(holder)) return failures;
  const { order } = declaredFields(holder.constructor);
  return [...failures].sort((a, b) => (order.get(a.property) ?? 0) - (order.get(b.property) ?? 0));
}
