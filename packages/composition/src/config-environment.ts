import 'reflect-metadata';
import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  Matches,
  Max,
  Min,
  MinLength,
  registerDecorator,
  ValidateIf,
  ValidationArguments,
  validateSync,
} from 'class-validator';
import { E164_PATTERN } from '@voiceplane/domain';

/**
 * The environment variables as one class-validator class, a property per variable under its own name.
 * Properties are declared in the order their problems are listed. A check that only matters for one
 * provider is skipped (ValidateIf) while another provider is chosen, so its variables may hold anything.
 */

/** The trimmed text each instance was read from: messages quote what was set, not its conversion. */
const rawValues = new WeakMap<object, Record<string, string>>();
const got = (args: ValidationArguments) => `(got "${rawValues.get(args.object)?.[args.property] ?? ''}")`;

const toInt = ({ value }: { value: unknown }) => Number(value);
const toBool = ({ value }: { value: string }) => {
  const v = value.toLowerCase();
  return ['1', 'true', 'yes'].includes(v) ? true : ['0', 'false', 'no'].includes(v) ? false : value;
};

const Int =
  (min: number, max: number): PropertyDecorator =>
  (target, key) => {
    const message = (args: ValidationArguments) =>
      `${args.property} must be an integer from ${min} to ${max} ${got(args)}`;
    for (const d of [IsOptional(), Transform(toInt), IsInt({ message }), Min(min, { message }), Max(max, { message })])
      d(target, key);
  };
const Flag =
  (when?: (e: Environment) => boolean): PropertyDecorator =>
  (target, key) => {
    const message = (args: ValidationArguments) => `${args.property} must be 1/0 or true/false ${got(args)}`;
    const skip = when ? ValidateIf((e: Environment) => when(e) && present(e, key)) : IsOptional();
    for (const d of [skip, Transform(toBool), IsBoolean({ message })]) d(target, key);
  };
const OneOf =
  (values: readonly string[]): PropertyDecorator =>
  (target, key) => {
    const message = (args: ValidationArguments) => `${args.property} must be one of ${values.join(', ')} ${got(args)}`;
    for (const d of [IsOptional(), IsIn(values, { message })]) d(target, key);
  };
// Money has at most four decimals everywhere in the ledger; a price finer than that could not be charged.
const PRICE = /^0*(100(\.0{1,4})?|\d{1,2}(\.\d{1,4})?)$/;
const Price = (): PropertyDecorator => (target, key) => {
  const message = (args: ValidationArguments) =>
    `${args.property} must be a price in USD from 0 to 100 with at most 4 decimals ${got(args)}`;
  for (const d of [IsOptional(), Matches(PRICE, { message })]) d(target, key);
};
const Token = (): PropertyDecorator => (target, key) => {
  for (const d of [IsOptional(), MinLength(16, { message: '$property must be at least 16 characters' })])
    d(target, key);
};

/** The WHATWG URL parser (what the clients use), not validator.js's isURL: same acceptance as the clients. */
function UrlWith(schemes: string[], when?: (e: Environment) => boolean): PropertyDecorator {
  return (target, key) => {
    (when ? ValidateIf((e: Environment) => when(e) && present(e, key)) : IsOptional())(target, key);
    registerDecorator({
      name: 'urlWith',
      target: target.constructor,
      propertyName: key as string,
      constraints: schemes,
      validator: {
        validate: (value: unknown) => {
          try {
            return schemes.includes(new URL(String(value)).protocol);
          } catch {
            return false;
          }
        },
        defaultMessage: (args?: ValidationArguments) => {
          try {
            new URL(String(args?.value));
          } catch {
            return `${args?.property} is not a valid URL`;
          }
          return `${args?.property} must use ${schemes.join(' or ')}`;
        },
      },
    });
  };
}

const present = (e: Environment, key: string | symbol) => e[key as keyof Environment] !== undefined;
const usesLivekit = (e: Environment) => e.VOICE_RUNTIME === 'livekit' || e.SIP_PROVISIONER === 'livekit';
const embeds = (e: Environment) => e.EMBEDDINGS_MODEL !== undefined;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export class Environment {
  @Int(0, 65535) readonly PORT?: number;
  readonly HOST?: string;
  @OneOf(['sandbox', 'livekit']) readonly VOICE_RUNTIME?: 'sandbox' | 'livekit';
  @OneOf(['sandbox', 'livekit']) readonly SIP_PROVISIONER?: 'sandbox' | 'livekit';
  @OneOf(['sandbox', 'twilio']) readonly NUMBER_INVENTORY?: 'sandbox' | 'twilio';
  @OneOf(['sandbox', 'whatsapp_cloud']) readonly CHATAPP_PROVIDER?: 'sandbox' | 'whatsapp_cloud';
  @OneOf(['sandbox', 'twilio']) readonly SMS_PROVIDER?: 'sandbox' | 'twilio';

  @UrlWith(['http:', 'https:', 'ws:', 'wss:'], usesLivekit) readonly LIVEKIT_URL?: string;
  readonly LIVEKIT_API_KEY?: string;
  readonly LIVEKIT_API_SECRET?: string;
  readonly LIVEKIT_SIP_EGRESS_IP?: string;
  readonly LIVEKIT_AGENT_NAME?: string;
  readonly LIVEKIT_OUTBOUND_TRUNK_ID?: string;
  @ValidateIf((e: Environment) => usesLivekit(e) && e.PLATFORM_CALLER_NUMBER !== undefined)
  @Matches(E164_PATTERN, { message: '$property must be an E.164 number (+ and 7–15 digits)' })
  readonly PLATFORM_CALLER_NUMBER?: string;

  readonly TWILIO_ACCOUNT_SID?: string;
  readonly TWILIO_AUTH_TOKEN?: string;
  @UrlWith(['http:', 'https:'], (e) => e.NUMBER_INVENTORY === 'twilio' || e.SMS_PROVIDER === 'twilio')
  readonly TWILIO_BASE_URL?: string;

  readonly WHATSAPP_APP_SECRET?: string;
  readonly WHATSAPP_VERIFY_TOKEN?: string;
  @UrlWith(['http:', 'https:'], (e) => e.CHATAPP_PROVIDER === 'whatsapp_cloud')
  readonly WHATSAPP_GRAPH_BASE_URL?: string;
  readonly WHATSAPP_SIP_SERVER_HOST?: string;

  @OneOf(['sandbox', 'openai', 'off']) readonly REPLY_GENERATOR?: 'sandbox' | 'openai' | 'off';
  readonly OPENAI_API_KEY?: string;
  // Embeddings fall back to the reply generator's API root when they have none of their own.
  @UrlWith(
    ['http:', 'https:'],
    (e) => e.REPLY_GENERATOR === 'openai' || (embeds(e) && e.EMBEDDINGS_BASE_URL === undefined),
  )
  readonly OPENAI_BASE_URL?: string;
  readonly OPENAI_MODEL?: string;
  readonly EMBEDDINGS_MODEL?: string;
  readonly EMBEDDINGS_API_KEY?: string;
  @UrlWith(['http:', 'https:'], embeds) readonly EMBEDDINGS_BASE_URL?: string;

  @OneOf(['sandbox', 'stripe']) readonly BILLING_PROVIDER?: 'sandbox' | 'stripe';
  // Only the shape is checked, never echoed: these are secrets.
  @ValidateIf((e: Environment) => e.BILLING_PROVIDER === 'stripe')
  @Matches(/^(sk|rk)_(test|live)_\S+$/, {
    message: '$property is required when BILLING_PROVIDER=stripe and must look like sk_test_…, sk_live_… or rk_…',
  })
  readonly STRIPE_SECRET_KEY?: string;
  @ValidateIf((e: Environment) => e.BILLING_PROVIDER === 'stripe')
  @Matches(/^whsec_\S+$/, { message: '$property is required when BILLING_PROVIDER=stripe and must look like whsec_…' })
  readonly STRIPE_WEBHOOK_SECRET?: string;
  @UrlWith(['http:', 'https:'], (e) => e.BILLING_PROVIDER === 'stripe') readonly STRIPE_API_BASE?: string;

  readonly VOICEPLANE_DATA_DIR?: string;
  @OneOf(['files', 's3']) readonly MEDIA_STORE?: 'files' | 's3';
  readonly S3_BUCKET?: string;
  readonly S3_REGION?: string;
  readonly S3_ACCESS_KEY_ID?: string;
  readonly S3_SECRET_ACCESS_KEY?: string;
  @UrlWith(['http:', 'https:'], (e) => e.MEDIA_STORE === 's3') readonly S3_ENDPOINT?: string;
  @Flag((e) => e.MEDIA_STORE === 's3') readonly S3_FORCE_PATH_STYLE?: boolean;

  @UrlWith(['http:', 'https:']) readonly PUBLIC_BASE_URL?: string;
  @UrlWith(['postgres:', 'postgresql:']) readonly DATABASE_URL?: string;
  @UrlWith(['amqp:', 'amqps:']) readonly AMQP_URL?: string;
  @Token() readonly ADMIN_TOKEN?: string;
  @Token() readonly RUNTIME_TOKEN?: string;
  @Flag() readonly ALLOW_PRIVATE_TARGETS?: boolean;
  @Flag() readonly REQUIRE_HTTPS_TARGETS?: boolean;
  @OneOf(LOG_LEVELS) readonly LOG_LEVEL?: (typeof LOG_LEVELS)[number];
  @Int(1, 24 * 365) readonly SESSION_TTL_HOURS?: number;
  readonly DEMO_PASSWORD?: string;
  readonly SECRETS_KEY?: string;
  @Price() readonly PRICE_PHONE_CALL_MINUTE?: string;
  @Price() readonly PRICE_CHATAPP_CALL_MINUTE?: string;
  @Price() readonly PRICE_TEMPLATE_MESSAGE?: string;
  @Price() readonly PRICE_FREEFORM_MESSAGE?: string;
  @Price() readonly PRICE_SMS_SEGMENT?: string;
  @Int(1, 1_000_000) readonly AUTOMATION_HOOK_RATE_PER_MINUTE?: number;
  @Int(1, 3650) readonly CHATAPP_MEDIA_RETENTION_DAYS?: number;
  @Flag() readonly FAULT_HOLD_IDEMPOTENT_ANSWERS?: boolean;
}

/** The environment as an Environment (blank counts as unset) and every per-variable problem, in declaration order. */
export function readEnvironment(env: NodeJS.ProcessEnv): { environment: Environment; problems: string[] } {
  const raw: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const v = value?.trim();
    if (v) raw[name] = v;
  }
  const environment = plainToInstance(Environment, raw);
  rawValues.set(environment, raw);
  const problems = validateSync(environment).flatMap((error) => [...new Set(Object.values(error.constraints ?? {}))]);
  return { environment, problems };
}
