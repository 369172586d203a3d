import { FieldErrors, Result } from '@voiceplane/domain';
import { TargetCheck } from './constraints';

/**
 * The options a DTO field is declared with. Each decorator turns them into class-transformer
 * coercion and class-validator constraints carrying the catalogue messages;
 * the OpenAPI schema is read back from that metadata, so the document cannot drift from what is
 * enforced.
 */
export type Ctor<T = unknown> = new () => T;

export type RuleName =
  | 'required'
  | 'filled'
  | 'type'
  | 'min'
  | 'max'
  | 'between'
  | 'in'
  | 'pattern'
  | 'email'
  | 'url'
  | 'date'
  | 'nonZero'
  | 'money';

export interface Common {
  /** Required on create; ignored when validating a partial update. */
  readonly required?: boolean;
  /** `null` is a value (clears the field); `""` becomes null. */
  readonly nullable?: boolean;
  /** Overrides catalogue messages for this field; `{field}` is substituted. */
  readonly messages?: Partial<Record<RuleName, string>>;
  readonly description?: string;
  readonly example?: unknown;
}

export interface StringOptions extends Common {
  readonly min?: number;
  readonly max?: number;
  /** Default true; passwords and message texts keep their spaces. */
  readonly trim?: boolean;
  readonly pattern?: RegExp;
  readonly enum?: readonly string[];
  readonly upper?: boolean;
  readonly email?: boolean;
  readonly url?: boolean;
  /** An ISO 8601 timestamp, kept as text; `parseTimestamp` reads it. */
  readonly timestamp?: boolean;
  /** A member of an open set (time zones): its canonical spelling, or null when unknown ("The selected … is invalid."). */
  readonly canonical?: (value: string) => string | null;
  /** An outbound URL: checked last, against the policy passed to validateDto. */
  readonly target?: TargetCheck;
}

export interface BoundOptions extends Common {
  readonly min?: number;
  readonly max?: number;
}

export interface NumberOptions extends BoundOptions {
  /** Zero is refused ("The {field} must not be zero."). */
  readonly nonZero?: boolean;
  /** A money amount: at most 4 decimal places. */
  readonly money?: boolean;
  /** An upper limit reported on its own ("may not be greater than"), whatever `min` says. */
  readonly limit?: number;
}

export interface ListOptions extends Common {
  readonly min?: number;
  readonly max?: number;
}

export interface ObjectOptions extends Common {
  /** The object's own DTO: its fields are validated under `key.field`. */
  readonly shape?: Ctor;
  /** A map whose entries have their own rule (variables): the normaliser coerces it, or names the failing entries. */
  readonly entries?: (value: Record<string, unknown>) => Result<Record<string, unknown>, FieldErrors>;
}

/** Items of one array that take different shapes: the DTO an item is validated against, and the fields it is built from. */
export interface ItemChoice {
  readonly choose: (item: Record<string, unknown>) => { readonly dto: Ctor; readonly fields: object };
}

/** Items of an array of scalars; each item is required. */
export type ItemSpec = ({ readonly kind: 'string' } & StringOptions) | ({ readonly kind: 'id' } & Common);
