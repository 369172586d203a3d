import {
  E164_PATTERN,
  err,
  FieldErrors,
  ok,
  QUALITY_RATINGS,
  QualityRating,
  Result,
  SENDER_STATUSES,
  SenderStatus,
  TEMPLATE_CATEGORIES,
  TEMPLATE_STATUSES,
  TemplateCategory,
  TemplateStatus,
} from '@voiceplane/domain';
import { Bool, Id, ListFilters, Obj, publicTarget, Str } from '../../validation';

const PHONE_TEXT_MAX = 64;
const VARIABLE_VALUE_MAX = 1024;
const E164_MESSAGE = { pattern: 'The {field} must be a valid E.164 phone number.' };

/** Template send variables: strings ≤ 1024, numbers and booleans as their text; null counts as absent. */
export function templateVariables(
  input: Readonly<Record<string, unknown>>,
): Result<Record<string, string>, FieldErrors> {
  const values: Record<string, string> = {};
  const errors: FieldErrors = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'number' || typeof value === 'boolean') values[key] = String(value);
    else if (typeof value !== 'string') errors[`variables.${key}`] = [`The variables.${key} must be a string.`];
    else if (value.length > VARIABLE_VALUE_MAX)
      errors[`variables.${key}`] = [`The variables.${key} may not be greater than ${VARIABLE_VALUE_MAX} characters.`];
    else values[key] = value;
  }
  return Object.keys(errors).length > 0 ? err(errors) : ok(values);
}

export class SendTemplateBody {
  @Id({ required: true, example: 12 }) sender_id!: number;
  @Id({ required: true, example: 34 }) template_id!: number;
  @Str({
    required: true,
    max: PHONE_TEXT_MAX,
    description: 'E.164 (otherwise INVALID_PHONE at its place in the check order)',
    example: '+14155551234',
  })
  recipient_phone!: string;
  @Str({ nullable: true, max: 255, description: "Stored as the conversation's customer_name" }) recipient_name?:
    | string
    | null;
  @Obj({
    entries: templateVariables,
    description: 'Template variables by name or position ("1", "2"); values ≤ 1024 characters',
  })
  variables?: Record<string, string>;
}

export class SendFreeformBody {
  @Id({ required: true, example: 12 }) sender_id!: number;
  @Str({ required: true, max: PHONE_TEXT_MAX, description: 'E.164', example: '+14155551234' }) recipient_phone!: string;
  @Str({
    nullable: true,
    trim: false,
    max: 4096,
    description: 'Required unless media_url is given; the caption of media (not audio)',
  })
  message?: string | null;
  @Str({
    nullable: true,
    max: 2048,
    url: true,
    target: publicTarget,
    description: 'Public URL fetched at send time (15 s, 16 MB)',
  })
  media_url?: string | null;
  @Str({ nullable: true, max: 255, description: 'Name shown to the recipient (documents)' }) filename?: string | null;
}

export class SessionStatusQuery {
  @Id({ required: true }) sender_id!: number;
  @Str({ required: true, max: PHONE_TEXT_MAX, description: 'E.164' }) recipient_phone!: string;
}

const SENDER_LIST_STATUSES = [...SENDER_STATUSES, 'all'] as const;
@ListFilters()
export class SenderListQuery {
  @Str({ enum: SENDER_LIST_STATUSES, description: '`online` (default), `offline` or `all`' }) status?:
    | SenderStatus
    | 'all';
}

const TEMPLATE_LIST_STATUSES = [...TEMPLATE_STATUSES, 'all'] as const;
@ListFilters()
export class TemplateListQuery {
  @Str({ enum: TEMPLATE_LIST_STATUSES, description: '`approved` (default), `pending`, `rejected` or `all`' }) status?:
    | TemplateStatus
    | 'all';
}

export class TemplateAliasQuery extends TemplateListQuery {
  @Id({ required: true }) sender_id!: number;
}

export class WhatsappCredentialsBody {
  @Str({ required: true, max: 64 }) phone_number_id!: string;
  @Str({ required: true, max: 64 }) waba_id!: string;
  @Str({ required: true, trim: false, max: 1024 }) access_token!: string;
}

export class CreateSenderBody {
  @Str({ required: true, pattern: E164_PATTERN, messages: E164_MESSAGE, example: '+4915112345678' })
  phone_number!: string;
  @Str({ required: true, max: 255, example: 'Acme Support' }) display_name!: string;
  @Id({ nullable: true, description: 'One of your assistants (replies and calls)' }) assistant_id?: number | null;
  @Bool() calling_enabled?: boolean;
  @Str({ nullable: true, max: 2048, url: true, target: publicTarget, description: 'Receives message_status events' })
  status_webhook_url?: string | null;
  @Obj({ description: 'whatsapp provider: phone_number_id, waba_id, access_token (write-only)' })
  provider_config?: Record<string, unknown>;
}

export class UpdateSenderBody {
  @Str({ max: 255 }) display_name?: string;
  @Id({ nullable: true }) assistant_id?: number | null;
  @Bool() calling_enabled?: boolean;
  @Str({ nullable: true, max: 2048, url: true, target: publicTarget }) status_webhook_url?: string | null;
}

export class CreateTemplateBody {
  @Str({ required: true, pattern: /^[a-z0-9_]{1,512}$/, example: 'order_update' }) name!: string;
  @Str({ required: true, pattern: /^[a-z]{2}(_[A-Z]{2})?$/, example: 'en' }) language!: string;
  @Str({ required: true, enum: TEMPLATE_CATEGORIES }) category!: TemplateCategory;
  @Str({ required: true, trim: false, min: 1, max: 1024, example: 'Hi {{1}}, your order {{2}} has shipped.' })
  body_text!: string;
  @Str({ nullable: true, max: 60 }) footer_text?: string | null;
}

/** Sandbox: a customer message arrives. */
export class SandboxInboundBody {
  @Id({ required: true }) sender_id!: number;
  @Str({ required: true, pattern: E164_PATTERN, messages: E164_MESSAGE }) from_phone!: string;
  @Str({ nullable: true, trim: false, max: 4096 }) text?: string | null;
  @Str({ nullable: true, max: 2048, url: true }) media_url?: string | null;
  @Str({ nullable: true, enum: ['image', 'audio', 'video', 'document'] }) media_type?:
    | 'image'
    | 'audio'
    | 'video'
    | 'document'
    | null;
  @Str({ nullable: true, max: 255 }) customer_name?: string | null;
}

/** Sandbox: a sender's status. */
export class SandboxSenderStatusBody {
  @Str({ required: true, enum: SENDER_STATUSES }) status!: SenderStatus;
  @Str({ enum: QUALITY_RATINGS, upper: true }) quality_rating?: QualityRating;
}

/** Sandbox: a template's status. */
export class SandboxTemplateStatusBody {
  @Str({ required: true, enum: TEMPLATE_STATUSES }) status!: TemplateStatus;
  @Str({ nullable: true, max: 1024 }) rejection_reason?: string | null;
}

/** Sandbox: a message's delivery status. */
export class SandboxMessageStatusBody {
  @Str({ required: true, enum: ['sent', 'delivered', 'read', 'failed', 'undelivered'] }) status!:
    | 'sent'
    | 'delivered'
    | 'read'
    | 'failed'
    | 'undelivered';
  @Str({ nullable: true, max: 64 }) error_code?: string | null;
  @Str({ nullable: true, max: 1024 }) error_message?: string | null;
}

/** Sandbox: close the 24-hour window. */
export class SandboxExpireWindowBody {
  @Id({ required: true }) sender_id!: number;
  @Str({ required: true, pattern: E164_PATTERN, messages: E164_MESSAGE }) customer_phone!: string;
}

/** Sandbox: what the sandbox chat app sent. */
@ListFilters()
export class SandboxOutboxQuery {
  @Id() sender_id?: number;
  @Str({ max: PHONE_TEXT_MAX }) to?: string;
}
