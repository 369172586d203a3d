import { addFieldProblem, FieldProblems, hasFieldProblems } from '../common/field-problems';
import { err, ok, Result } from '../common/result';

export const SIP_CALLING_FORMATS = ['+e164', 'e164', 'national'] as const;
export type SipCallingFormat = (typeof SIP_CALLING_FORMATS)[number];

export const INBOUND_AUTHORIZATION_TYPES = ['auth', 'ip'] as const;
export type InboundAuthorizationType = (typeof INBOUND_AUTHORIZATION_TYPES)[number];

/** SIP trunk field limits. */
export const SIP_TRUNK_LIMITS = {
  phoneNumberMax: 15,
  nicknameMax: 50,
  usernameMin: 3,
  usernameMax: 128,
  passwordMin: 3,
  passwordMax: 128,
  allowedIpsMax: 50,
} as const;

/** A SIP extension or number: digits with an optional leading `+`. */
export const SIP_PHONE_NUMBER_PATTERN = /^\+?[0-9]+$/;

/** The merged-state rule a SIP trunk can break: `ip` authorization with no allowed address. */
export type SipTrunkProblem = 'ip_list_required';

/** Everything an account configures on a SIP trunk; the password in plain text. */
export interface SipTrunkSettings {
  readonly phoneNumber: string;
  readonly nickname: string | null;
  readonly sipUsername: string;
  readonly sipPassword: string;
  readonly sipAddress: string;
  readonly sipCallingFormat: SipCallingFormat;
  readonly inboundAuthorizationType: InboundAuthorizationType;
  /** Null exactly when the type is `auth`. */
  readonly allowedInboundIps: readonly string[] | null;
  readonly outboundProxy: boolean;
  readonly countryCode: string;
}

export type SipTrunkField = keyof SipTrunkSettings;

/** A partial update: only the sent fields, already well-formed one by one. */
export type SipTrunkChanges = { -readonly [K in SipTrunkField]?: SipTrunkSettings[K] };

export type NewSipTrunk = Pick<SipTrunkSettings, 'phoneNumber' | 'sipUsername' | 'sipPassword' | 'sipAddress'> &
  SipTrunkChanges;

/** SIP trunk defaults. */
const DEFAULTS = {
  nickname: null,
  sipCallingFormat: '+e164',
  inboundAuthorizationType: 'auth',
  outboundProxy: false,
  countryCode: 'US',
} as const;

/** Wire name of a field, for error keys. */
const wire = (field: SipTrunkField): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function distinct(list: readonly string[]): string[] {
  return [...new Set(list)];
}

/**
 * The merged-state rule of the allow-list: `auth` keeps no list (a sent one is ignored); `ip`
 * needs at least one entry, taken from the request when sent, else from what is stored.
 */
function settleAllowedIps(
  type: InboundAuthorizationType,
  sent: readonly string[] | null | undefined,
  stored: readonly string[] | null,
  problems: FieldProblems<SipTrunkProblem>,
): readonly string[] | null {
  if (type === 'auth') return null;
  const list = distinct((sent === undefined ? stored : sent) ?? []);
  if (list.length === 0) addFieldProblem(problems, wire('allowedInboundIps'), 'ip_list_required');
  return list;
}

/** Create: defaults filled in, then the merged-state rules. */
export function newSipTrunkSettings(input: NewSipTrunk): Result<SipTrunkSettings, FieldProblems<SipTrunkProblem>> {
  const problems: FieldProblems<SipTrunkProblem> = {};
  const type = input.inboundAuthorizationType ?? DEFAULTS.inboundAuthorizationType;
  const settings: SipTrunkSettings = {
    phoneNumber: input.phoneNumber,
    nickname: input.nickname ?? DEFAULTS.nickname,
    sipUsername: input.sipUsername,
    sipPassword: input.sipPassword,
    sipAddress: input.sipAddress,
    sipCallingFormat: input.sipCallingFormat ?? DEFAULTS.sipCallingFormat,
    inboundAuthorizationType: type,
    allowedInboundIps: settleAllowedIps(type, input.allowedInboundIps, null, problems),
    outboundProxy: input.outboundProxy ?? DEFAULTS.outboundProxy,
    countryCode: input.countryCode ?? DEFAULTS.countryCode,
  };
  return hasFieldProblems(problems) ? err(problems) : ok(settings);
}

const sameList = (a: readonly string[] | null, b: readonly string[] | null): boolean => {
  if (a === null || b === null) return a === b;
  // The allow-list is a set: reordering it changes nothing at the provider.
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
};

/** Fields whose value differs from the stored one ("changed"). */
export function changedFields(stored: SipTrunkSettings, next: SipTrunkSettings): SipTrunkField[] {
  return (Object.keys(stored) as SipTrunkField[]).filter((field) =>
    field === 'allowedInboundIps'
      ? !sameList(stored.allowedInboundIps, next.allowedInboundIps)
      : stored[field] !== next[field],
  );
}

export interface MergedSipTrunk {
  readonly settings: SipTrunkSettings;
  readonly changed: readonly SipTrunkField[];
}

/** Update: the stored settings with the sent fields applied, the merged-state rules, and what changed. */
export function mergeSipTrunkChanges(
  stored: SipTrunkSettings,
  changes: SipTrunkChanges,
): Result<MergedSipTrunk, FieldProblems<SipTrunkProblem>> {
  const problems: FieldProblems<SipTrunkProblem> = {};
  const type = changes.inboundAuthorizationType ?? stored.inboundAuthorizationType;
  const settings: SipTrunkSettings = {
    phoneNumber: changes.phoneNumber ?? stored.phoneNumber,
    nickname: changes.nickname === undefined ? stored.nickname : changes.nickname,
    sipUsername: changes.sipUsername ?? stored.sipUsername,
    sipPassword: changes.sipPassword ?? stored.sipPassword,
    sipAddress: changes.sipAddress ?? stored.sipAddress,
    sipCallingFormat: changes.sipCallingFormat ?? stored.sipCallingFormat,
    inboundAuthorizationType: type,
    allowedInboundIps: settleAllowedIps(type, changes.allowedInboundIps, stored.allowedInboundIps, problems),
    outboundProxy: changes.outboundProxy ?? stored.outboundProxy,
    countryCode: changes.countryCode ?? stored.countryCode,
  };
  if (hasFieldProblems(problems)) return err(problems);
  return ok({ settings, changed: changedFields(stored, settings) });
}
