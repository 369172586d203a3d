import {
  FieldErrors,
  INBOUND_AUTHORIZATION_TYPES,
  IP_OR_CIDR_PATTERN,
  ISO_COUNTRY_CODES,
  NewSipTrunk,
  Result,
  SIP_CALLING_FORMATS,
  SIP_HOST_PATTERN,
  SIP_PHONE_NUMBER_PATTERN,
  SIP_TRUNK_LIMITS,
  SipTrunkChanges,
} from '@voiceplane/domain';
import { Arr, Bool, Str, validateDto } from '../../validation';
import { SIP_ADDRESS_MESSAGE } from './sip-trunk-messages';

const L = SIP_TRUNK_LIMITS;

// The four fields a create requires, declared once for both bodies.
const PHONE_NUMBER = {
  max: L.phoneNumberMax,
  pattern: SIP_PHONE_NUMBER_PATTERN,
  description: 'SIP extension or number',
  example: '+493012345678',
};
const SIP_USERNAME = { min: L.usernameMin, max: L.usernameMax, example: 'acme-trunk' };
const SIP_PASSWORD = {
  min: L.passwordMin,
  max: L.passwordMax,
  trim: false,
  description: 'Write-only; stored encrypted, never returned',
};
const SIP_ADDRESS = {
  max: 255,
  pattern: SIP_HOST_PATTERN,
  messages: { pattern: SIP_ADDRESS_MESSAGE, max: SIP_ADDRESS_MESSAGE },
  description: 'Host name or IP address; no scheme, port or path',
  example: 'sip.carrier.example',
};

/** The fields with defaults, shared by create and update. */
class OptionalTrunkFields {
  @Str({ max: L.nicknameMax, nullable: true, example: 'Berlin office' })
  nickname?: string | null;

  @Str({ enum: SIP_CALLING_FORMATS, description: 'How numbers are written when dialling out' })
  sip_calling_format?: string;

  @Str({
    enum: INBOUND_AUTHORIZATION_TYPES,
    description: '`auth`: digest credentials; `ip`: source-address allow-list',
  })
  inbound_authorization_type?: string;

  @Arr(
    { kind: 'string', pattern: IP_OR_CIDR_PATTERN },
    {
      max: L.allowedIpsMax,
      nullable: true,
      description: 'IPv4/IPv6 addresses or CIDR blocks; required for `ip`, ignored (null) for `auth`',
    },
  )
  allowed_inbound_ips?: string[] | null;

  @Bool({ description: 'Outbound calls leave through the fixed egress IP address' })
  outbound_proxy?: boolean;

  @Str({ upper: true, enum: ISO_COUNTRY_CODES, description: 'ISO 3166-1 alpha-2', example: 'DE' })
  country_code?: string;
}

/** Every SIP trunk field, all optional: the update body. */
export class SipTrunkFieldsBody extends OptionalTrunkFields {
  @Str(PHONE_NUMBER) phone_number?: string;
  @Str(SIP_USERNAME) sip_username?: string;
  @Str(SIP_PASSWORD) sip_password?: string;
  @Str(SIP_ADDRESS) sip_address?: string;
}

/** The create body: four fields are required, the rest default. */
export class CreateSipTrunkBody extends OptionalTrunkFields {
  @Str({ ...PHONE_NUMBER, required: true }) phone_number!: string;
  @Str({ ...SIP_USERNAME, required: true }) sip_username!: string;
  @Str({ ...SIP_PASSWORD, required: true }) sip_password!: string;
  @Str({ ...SIP_ADDRESS, required: true }) sip_address!: string;
}

export class DryRunQuery {
  @Bool({ description: 'Compute the outcome without changing anything' })
  dry_run?: boolean;
}

/** Only the keys that were sent, in domain terms. */
export function trunkChanges(body: SipTrunkFieldsBody | CreateSipTrunkBody): SipTrunkChanges {
  // Validated bodies carry only what was sent; a sent null stays null, never undefined.
  const sent = <K extends keyof SipTrunkFieldsBody>(k: K) => (body as SipTrunkFieldsBody)[k] !== undefined;
  const changes: SipTrunkChanges = {};
  if (sent('phone_number')) changes.phoneNumber = body.phone_number;
  if (sent('nickname')) changes.nickname = body.nickname ?? null;
  if (sent('sip_username')) changes.sipUsername = body.sip_username;
  if (sent('sip_password')) changes.sipPassword = body.sip_password;
  if (sent('sip_address')) changes.sipAddress = body.sip_address;
  if (sent('sip_calling_format'))
    changes.sipCallingFormat = body.sip_calling_format as SipTrunkChanges['sipCallingFormat'];
  if (sent('inbound_authorization_type'))
    changes.inboundAuthorizationType = body.inbound_authorization_type as SipTrunkChanges['inboundAuthorizationType'];
  if (sent('allowed_inbound_ips')) changes.allowedInboundIps = body.allowed_inbound_ips ?? null;
  if (sent('outbound_proxy')) changes.outboundProxy = body.outbound_proxy;
  if (sent('country_code')) changes.countryCode = body.country_code;
  return changes;
}

export function newTrunk(body: CreateSipTrunkBody): NewSipTrunk {
  return {
    ...trunkChanges(body),
    phoneNumber: body.phone_number,
    sipUsername: body.sip_username,
    sipPassword: body.sip_password,
    sipAddress: body.sip_address,
  };
}

/**
 * The update's body and query checked together; errors are handed to the use case, which reports
 * them only after the 404 check.
 */
export function parseTrunkUpdate(
  body: unknown,
  query: unknown,
): { changes: Result<SipTrunkChanges, FieldErrors>; dryRun: boolean } {
  const fields = validateDto(SipTrunkFieldsBody, body, { partial: true });
  const options = validateDto(DryRunQuery, query ?? {});
  const dryRun = options.ok ? options.value.dry_run === true : false;
  if (fields.ok && options.ok) return { changes: { ok: true, value: trunkChanges(fields.value) }, dryRun };
  return {
    changes: { ok: false, error: { ...(fields.ok ? {} : fields.errors), ...(options.ok ? {} : options.errors) } },
    dryRun,
  };
}
