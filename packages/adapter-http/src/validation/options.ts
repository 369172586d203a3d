import { ClassTransformOptions } from 'class-transformer';
import { ValidatorOptions } from 'class-validator';

/**
 * Only the keys that were sent are transformed (class-transformer skips `__proto__` and
 * `constructor`); unknown ones are dropped after validation (CONTRACT §1.3: ignored).
 */
export const TRANSFORM: ClassTransformOptions = {};

export const VALIDATE: ValidatorOptions = {
  // Absent and null fields are judged by the presence rules alone (IsDefined runs regardless).
  skipMissingProperties: true,
  // One message per field (CONTRACT §1.6).
  stopAtFirstError: true,
  forbidUnknownValues: false,
  validationError: { target: true, value: false },
};
