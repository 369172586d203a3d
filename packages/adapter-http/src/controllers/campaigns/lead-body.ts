import {
  CAMPAIGN_LIMITS,
  FieldErrors,
  hasFieldErrors,
  LEAD_STATUSES,
  LeadStatus,
  normalizeLeadPhone,
  SETTABLE_LEAD_STATUSES,
} from '@voiceplane/domain';
import { LeadFilter, LeadInput, LeadUpdate } from '@voiceplane/application';
import { normalizeVariables } from '../assistants/assistant-messages';
import { Arr, Bool, Id, ListFilters, Obj, PageQuery, Str, validateDto } from '../../validation';
import { isPlainObject } from '../../validation/validate';
import { refuse, validationAnswer } from '../../pipeline/answers';

const PHONE_TEXT_MAX = 64;
const INVALID_PHONE = (field: string) => `The ${field} must be a valid E.164 phone number.`;
const NOT_OBJECT = (field: string) => `The ${field} must be an object.`;

export class SecondaryContactBody {
  @Str({ required: true, max: PHONE_TEXT_MAX, example: '+14155551235' }) phone_number!: string;
  @Obj({ description: "Overlays the primary lead's variables on calls to this contact" }) variables?: Record<
    string,
    unknown
  >;
}

export class LeadBody {
  @Str({
    required: true,
    max: PHONE_TEXT_MAX,
    description: 'E.164; spaces, -, ., ( ) removed, a leading 00 read as +',
    example: '+14155551234',
  })
  phone_number!: string;
  @Id({ required: true, example: 7 }) campaign_id!: number;
  @Obj({ description: 'An object (or an array of objects, merged): ≤ 50 keys, values ≤ 1000 characters' })
  variables?: Record<string, unknown>;
  @Bool({ description: 'Create even when the campaign has a lead with this number (spelled as Famulor documents it)' })
  allow_dupplicate?: boolean;
  @Bool({ description: 'Accepted too; allow_dupplicate wins when both are sent' }) allow_duplicate?: boolean;
  @Arr(SecondaryContactBody, {
    max: CAMPAIGN_LIMITS.secondaryContactsMax,
    description: 'Called in this order when the primary does not answer',
  })
  secondary_contacts?: SecondaryContactBody[];
}

/** A lead of a bulk import: the create body without `campaign_id` (the route names the campaign). */
export class ImportedLeadBody {
  @Str({ required: true, max: PHONE_TEXT_MAX, example: '+14155551234' }) phone_number!: string;
  @Obj({ description: 'An object (or an array of objects, merged)' }) variables?: Record<string, unknown>;
  @Bool() allow_dupplicate?: boolean;
  @Bool() allow_duplicate?: boolean;
  @Arr(SecondaryContactBody, { max: CAMPAIGN_LIMITS.secondaryContactsMax }) secondary_contacts?: SecondaryContactBody[];
}

export class LeadUpdateBody {
  @Id({ description: 'Moves the lead and its secondary contacts' }) campaign_id?: number;
  @Str({ max: PHONE_TEXT_MAX }) phone_number?: string;
  @Str({ enum: SETTABLE_LEAD_STATUSES }) status?: LeadStatus;
  @Obj({ description: 'Merged into the stored variables; a key sent as null is removed' }) variables?: Record<
    string,
    unknown
  >;
}

/** `variables` as an array of objects is merged in order (Famulor's German page sends it so). */
function mergedVariables(raw: unknown): unknown {
  if (!Array.isArray(raw)) return raw;
  if (!raw.every(isPlainObject)) return raw;
  return Object.assign({}, ...raw);
}

function variablesOf(raw: unknown, key: string, errors: FieldErrors): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  if (!isPlainObject(raw)) {
    errors[key] = [NOT_OBJECT(key.replaceAll('_', ' '))];
    return {};
  }
  const normalized = normalizeVariables(raw);
  if (normalized.ok) return normalized.value;
  for (const [k, messages] of Object.entries(normalized.error))
    errors[k.replace(/^variables/, key)] = messages.map((m) =>
      m.replace(/^The variables/, `The ${key.includes('.') ? key : 'variables'}`),
    );
  return {};
}

/** A create body as a lead, or the family's 422. */
export function parseLead(input: unknown): LeadInput {
  const lead = leadOf(LeadBody, input);
  if (!lead.ok) refuse(validationAnswer(lead.errors));
  return lead.value;
}

/** One lead of a bulk import (no `campaign_id`): the lead or its field errors. */
export function importedLead(
  input: unknown,
  allowDuplicate?: boolean,
): { ok: true; value: LeadInput } | { ok: false; errors: FieldErrors } {
  const lead = leadOf(ImportedLeadBody, input);
  return lead.ok
    ? { ok: true, value: { ...lead.value, allowDuplicate: allowDuplicate ?? lead.value.allowDuplicate } }
    : lead;
}

function leadOf(
  dto: typeof LeadBody | typeof ImportedLeadBody,
  input: unknown,
): { ok: true; value: LeadInput } | { ok: false; errors: FieldErrors } {
  const body = isPlainObject(input) ? { ...input, variables: mergedVariables(input.variables) } : input;
  const shaped = validateDto<LeadBody | ImportedLeadBody>(dto, body);
  if (!shaped.ok) return shaped;
  const b = shaped.value;
  const errors: FieldErrors = {};
  const phone = normalizeLeadPhone(b.phone_number);
  if (phone === null) errors.phone_number = [INVALID_PHONE('phone number')];
  const variables = variablesOf(b.variables, 'variables', errors);
  const seen = new Set<string>();
  const secondaryContacts = (b.secondary_contacts ?? []).map((c, i) => {
    const key = `secondary_contacts.${i}.phone_number`;
    const number = normalizeLeadPhone(c.phone_number);
    if (number === null) errors[key] = [INVALID_PHONE(key)];
    else if (number === phone) errors[key] = [`The ${key} and phone number must be different.`];
    else if (seen.has(number)) errors[key] = [`The ${key} field has a duplicate value.`];
    if (number !== null) seen.add(number);
    return {
      phoneNumber: number ?? '',
      variables: variablesOf(c.variables, `secondary_contacts.${i}.variables`, errors),
    };
  });
  if (hasFieldErrors(errors)) return { ok: false, errors };
  return {
    ok: true,
    value: {
      campaignId: 'campaign_id' in b ? b.campaign_id : 0,
      phoneNumber: phone as string,
      variables,
      secondaryContacts,
      allowDuplicate: b.allow_dupplicate ?? b.allow_duplicate ?? false,
    },
  };
}

/** An update body as changes, or its field errors (answered only once the lead is known to be the caller's). */
export function parseLeadUpdate(input: unknown): { ok: true; value: LeadUpdate } | { ok: false; error: FieldErrors } {
  const shaped = validateDto(LeadUpdateBody, input, { partial: true });
  if (!shaped.ok) return { ok: false, error: shaped.errors };
  const b = shaped.value;
  const errors: FieldErrors = {};
  let phoneNumber: string | undefined;
  if (b.phone_number !== undefined) {
    phoneNumber = normalizeLeadPhone(b.phone_number) ?? undefined;
    if (phoneNumber === undefined) errors.phone_number = [INVALID_PHONE('phone number')];
  }
  let variables: Record<string, string | null> | undefined;
  if (b.variables !== undefined) {
    const removed = Object.keys(b.variables).filter((k) => b.variables?.[k] === null);
    const kept = Object.fromEntries(Object.entries(b.variables).filter(([, v]) => v !== null));
    variables = { ...variablesOf(kept, 'variables', errors), ...Object.fromEntries(removed.map((k) => [k, null])) };
  }
  if (hasFieldErrors(errors)) return { ok: false, error: errors };
  return { ok: true, value: { campaignId: b.campaign_id, phoneNumber, status: b.status, variables } };
}

@ListFilters()
export class LeadListQuery extends PageQuery {
  @Str({ enum: LEAD_STATUSES }) status?: LeadStatus;
  @Id() campaign_id?: number;
  @Str({ max: PHONE_TEXT_MAX, description: 'Part of the number of the lead or of one of its secondary contacts' })
  phone_number?: string;
  @Str({ pattern: /^\d{4}-\d{2}-\d{2}$/, description: 'YYYY-MM-DD (UTC), inclusive' }) date_from?: string;
  @Str({ pattern: /^\d{4}-\d{2}-\d{2}$/, description: 'YYYY-MM-DD (UTC), inclusive' }) date_to?: string;
}

const DAY_MS = 86_400_000;

function utcDay(text: string | undefined): Date | null | undefined {
  if (text === undefined) return undefined;
  const at = new Date(`${text}T00:00:00.000Z`);
  return Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== text ? null : at;
}

export function parseLeadList(input: unknown): { readonly query: LeadListQuery; readonly filter: LeadFilter } {
  const shaped = validateDto(LeadListQuery, isPlainObject(input) ? input : {});
  if (!shaped.ok) refuse(validationAnswer(shaped.errors));
  const q = shaped.value;
  const from = utcDay(q.date_from);
  const to = utcDay(q.date_to);
  const errors: FieldErrors = {};
  if (from === null) errors.date_from = ['The date from format is invalid.'];
  if (to === null) errors.date_to = ['The date to format is invalid.'];
  if (from && to && to < from) errors.date_to = ['The date to must be after or equal to the date from.'];
  if (hasFieldErrors(errors)) refuse(validationAnswer(errors));
  const phone = q.phone_number?.replace(/[\s\-()]/g, '');
  return {
    query: q,
    filter: {
      status: q.status,
      campaignId: q.campaign_id,
      phoneNumber: phone === '' ? undefined : phone,
      createdFrom: from ?? undefined,
      createdBefore: to ? new Date(to.getTime() + DAY_MS) : undefined,
    },
  };
}
