import { checkTargetUrl, FieldErrors, hasAtMostFourDecimals, Result, TargetUrlPolicy } from '@voiceplane/domain';
import {
  registerDecorator,
  ValidationArguments,
  ValidationOptions,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { parseTimestamp } from './coercion';

/**
 * The rules class-validator has no exact equivalent for. Each is a named constraint so the
 * OpenAPI converters (openapi/dto-schemas.ts) can read it back.
 */

/**
 * Length in code points, as the API counts characters (validator.js also discounts
 * variation selectors). A code point is one or two UTF-16 units, so most strings are decided
 * without counting.
 */
function codePoints(s: string): number {
  return [...s].length;
}

@ValidatorConstraint({ name: 'maxChars' })
class MaxCharsConstraint implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    const max = args.constraints[0] as number;
    return typeof value === 'string' && (value.length <= max || codePoints(value) <= max);
  }
}

@ValidatorConstraint({ name: 'minChars' })
class MinCharsConstraint implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    const min = args.constraints[0] as number;
    return typeof value === 'string' && value.length >= min && (value.length >= 2 * min || codePoints(value) >= min);
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The catalogue's loose address shape; deliverability is not the API's to judge. */
@ValidatorConstraint({ name: 'isEmailAddress' })
class EmailAddressConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && EMAIL.test(value);
  }
}

/** An absolute http(s) URL as WHATWG parses it; whether the target is allowed is a separate policy. */
@ValidatorConstraint({ name: 'isHttpUrl' })
class HttpUrlConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'string') return false;
    try {
      const u = new URL(value);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }
}

function constraint(validator: Function, constraints: unknown[], options: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      constraints,
      validator,
    });
}

export const MaxChars = (max: number, options: ValidationOptions) => constraint(MaxCharsConstraint, [max], options);
export const MinChars = (min: number, options: ValidationOptions) => constraint(MinCharsConstraint, [min], options);
export const IsEmailAddress = (options: ValidationOptions) => constraint(EmailAddressConstraint, [], options);
export const IsHttpUrl = (options: ValidationOptions) => constraint(HttpUrlConstraint, [], options);

/** A member of a set too large to list in an enum; the check is the set's own canonicaliser. */
@ValidatorConstraint({ name: 'isKnown' })
class KnownConstraint implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    return typeof value === 'string' && (args.constraints[0] as (value: string) => string | null)(value) !== null;
  }
}

export const IsKnown = (canonical: (value: string) => string | null, options: ValidationOptions) =>
  constraint(KnownConstraint, [canonical], options);

/** A map whose entries pass the field's normaliser (its errors are the details). */
@ValidatorConstraint({ name: 'hasValidEntries' })
class ValidEntriesConstraint implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    return (args.constraints[0] as (value: Record<string, unknown>) => Result<unknown, FieldErrors>)(
      value as Record<string, unknown>,
    ).ok;
  }
}

export const HasValidEntries = (
  entries: (value: Record<string, unknown>) => Result<unknown, FieldErrors>,
  options: ValidationOptions,
) => constraint(ValidEntriesConstraint, [entries], options);

/** Money in USD: at most 4 decimal places. */
@ValidatorConstraint({ name: 'isMoney' })
class MoneyConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && hasAtMostFourDecimals(value);
  }
}

export const IsMoney = (options: ValidationOptions) => constraint(MoneyConstraint, [], options);

/** A timestamp the API accepts: ISO 8601 with an offset, or a bare date. */
@ValidatorConstraint({ name: 'isTimestamp' })
class TimestampConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && parseTimestamp(value) !== null;
  }
}

export const IsTimestamp = (options: ValidationOptions) => constraint(TimestampConstraint, [], options);

/** An integer JavaScript holds exactly: beyond 2^53 a "page" or a count is not the number that was sent. */
@ValidatorConstraint({ name: 'isSafeInteger' })
class SafeIntegerConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && Number.isSafeInteger(value);
  }
}

export const IsSafeInteger = (options: ValidationOptions) => constraint(SafeIntegerConstraint, [], options);

/** A positive id that survives JSON: a safe integer ≥ 1. */
@ValidatorConstraint({ name: 'isId' })
class IdConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
  }
}

export const IsId = (options: ValidationOptions) => constraint(IdConstraint, [], options);

/** The outbound target policy of the request being validated, by body. */
export const targetPolicies = new WeakMap<object, TargetUrlPolicy>();

/** A rule over an outbound URL: null when allowed, else the message (`{field}` is substituted). */
export type TargetCheck = (url: string, policy: TargetUrlPolicy) => string | null;

function targetProblem(args: ValidationArguments): string | null {
  const policy = targetPolicies.get(args.object);
  if (!policy)
    throw new Error(`${args.targetName}.${args.property} is an outbound target: validate it with a targetPolicy`);
  return (args.constraints[0] as TargetCheck)(args.value as string, policy);
}

/** Where a URL may point, as the deployment's policy decides; the message comes from the check. */
@ValidatorConstraint({ name: 'allowedTarget' })
class AllowedTargetConstraint implements ValidatorConstraintInterface {
  validate(_value: unknown, args: ValidationArguments): boolean {
    return targetProblem(args) === null;
  }

  defaultMessage(args: ValidationArguments): string {
    return targetProblem(args) ?? '';
  }
}

export const AllowedTarget = (check: TargetCheck) => constraint(AllowedTargetConstraint, [check], {});

/** The catalogue's policy rule for a plain URL field. */
export const publicTarget: TargetCheck = (url, policy) =>
  checkTargetUrl(url, policy).ok ? null : 'The {field} must be a public http or https URL.';
