import { ClassTransformOptions } from 'class-transformer';
import { ValidatorOptions } from 'class-validator';

/**
 * Only the keys that were sent are transformed (class-transformer skips `__proto__` and
 * `constructor`); unknown ones are dropped after validation (CONTRACT §1.3: ignored).
 * `ignoreDecorators` only turns off `@Expose`/`@Exclude`, which no DTO uses, and spares their
 * look-ups on every key; `@Type` and `@Transform` still apply.
 */
export const TRANSFORM: ClassTransformOptions = { ignoreDecorators: true };

export const VALIDATE: ValidatorOptions = {
  // Absent and null fields are judged by the presence rules alone (IsDefined runs regardless).
  skipMissingProperties: true,
  // One message per field (CONTRACT §1.6).
  stopAtFirstError: true,
  forbidUnknownValues: false,
  // error-keys.ts walks the validated body itself: nothing to copy into each error.
  validationError: { target: false, value: false },
};
