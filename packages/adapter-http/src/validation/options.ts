import { ClassTransformOptions } from 'class-transformer';
import { ValidatorOptions } from 'class-validator';
import { PARTIAL_ONLY } from './field';

/**
 * Only the keys that were sent are transformed (class-transformer skips `__proto__` and
 * `constructor`); unknown ones are dropped after validation (ignored).
 * `ignoreDecorators` only turns off `@Expose`/`@Exclude`, which no DTO uses, and spares their
 * look-ups on every key; `@Type` and `@Transform` still apply.
 */
export const TRANSFORM: ClassTransformOptions = { ignoreDecorators: true };

export const VALIDATE: ValidatorOptions = {
  // Absent and null fields are judged by the presence rules alone (IsDefined runs regardless).
  skipMissingProperties: true,
  // One message per field.
  stopAtFirstError: true,
  forbidUnknownValues: false,
  // Rules of a group (PARTIAL_ONLY) are left out.
  strictGroups: true,
  // error-keys.ts walks the validated body itself: nothing to copy into each error.
  validationError: { target: false, value: false },
};

/** Partial updates also run the PARTIAL_ONLY rules (`always`: and every rule without a group). */
export const VALIDATE_PARTIAL: ValidatorOptions = { ...VALIDATE, always: true, groups: [PARTIAL_ONLY] };
