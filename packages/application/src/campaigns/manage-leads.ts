import { blacklistContact, CAMPAIGN_LIMITS, err, FieldErrors, LeadStatus, ok, Result } from '@voiceplane/domain';
import { Clock } from '../ports';
import { CONCLUDES, UnitOfWork } from '../ports';
import { JobScheduler } from '../events';
import { DoNotCallList } from '../ports';
import { scheduleDial } from './campaign-dialer';
import { CampaignRepository, Lead, LeadFilter, LeadRepository, NewContact, Page, PageRequest } from './ports';

export type InvalidLeadFields = { readonly code: 'invalid_fields'; readonly errors: FieldErrors };
export type LeadRefusal = InvalidLeadFields | 'lead_not_found' | 'lead_limit' | 'being_called';

/** A lead as a create request sends it, numbers already normalised. */
export interface LeadInput {
  readonly campaignId: number;
  readonly phoneNumber: string;
  readonly variables: Readonly<Record<string, string>>;
  readonly allowDuplicate: boolean;
  readonly secondaryContacts: readonly Omit<NewContact, 'status'>[];
}

/** One row of a bulk import: the lead, or what is wrong with it. */
export type ImportRow =
  | { readonly ok: true; readonly value: Omit<LeadInput, 'campaignId'> }
  | { readonly ok: false; readonly errors: FieldErrors };

export interface ImportReport {
  readonly accepted: number;
  readonly duplicates: number;
  readonly doNotCall: number;
  /** 1-based rows (items) with their errors, in order. */
  readonly invalid: ReadonlyArray<{ readonly row: number; readonly errors: FieldErrors }>;
}

/** What a lead update sends; a variable sent as null is removed. */
export interface LeadUpdate {
  readonly campaignId?: number;
  readonly phoneNumber?: string;
  readonly status?: LeadStatus;
  readonly variables?: Readonly<Record<string, string | null>>;
}

export interface LeadStores {
  readonly uow: UnitOfWork;
  readonly campaigns: CampaignRepository;
  readonly leads: LeadRepository;
  readonly scheduler: JobScheduler;
  readonly doNotCall: DoNotCallList;
}

/** A listed number is stored `blacklisted`: the dialer never calls it. */
const statusFor = (listed: ReadonlySet<string>, phone: string): LeadStatus =>
  listed.has(phone) ? 'blacklisted' : 'created';

const INVALID_CAMPAIGN: FieldErrors = { campaign_id: ['The selected campaign id is invalid.'] };
const VARIABLES_MAX = 50;

/** Lead routes; a lead of another account is never found, and its campaign never accepted. */
export class ManageLeads {
  constructor(
    private readonly s: LeadStores,
    private readonly clock: Clock,
  ) {}

  async create(userId: number, input: LeadInput): Promise<Result<Lead, LeadRefusal>> {
    return this.s.uow.transaction(async () => {
      // The campaign's row lock orders concurrent creates, so the duplicate check and the limit hold.
      const campaign = await this.s.campaigns.findOwned(userId, input.campaignId, { lock: true });
      if (campaign === null) return err({ code: 'invalid_fields' as const, errors: INVALID_CAMPAIGN });
      if (!input.allowDuplicate && (await this.s.leads.takenPhones(campaign.id, [input.phoneNumber])).size > 0) {
        return err({
          code: 'invalid_fields' as const,
          errors: { phone_number: ['The phone number has already been taken.'] },
        });
      }
      const size = 1 + input.secondaryContacts.length;
      if ((await this.s.leads.countInCampaign(campaign.id)) + size > CAMPAIGN_LIMITS.leadsPerCampaign)
        return err('lead_limit' as const);
      const listed = await this.s.doNotCall.listed(userId, [
        input.phoneNumber,
        ...input.secondaryContacts.map((c) => c.phoneNumber),
      ]);
      const [id] = await this.s.leads.create(
        userId,
        campaign.id,
        [
          {
            phoneNumber: input.phoneNumber,
            variables: input.variables,
            status: statusFor(listed, input.phoneNumber),
            secondaryContacts: input.secondaryContacts.map((c) => ({ ...c, status: statusFor(listed, c.phoneNumber) })),
          },
        ],
        this.clock.now(),
      );
      // A running campaign calls a new lead at once, not at its next tick.
      if (campaign.status === 'in-progress') await scheduleDial(this.s.scheduler, campaign.id, this.clock.now());
      return ok((await this.s.leads.findOwned(userId, id)) as Lead);
    }, CONCLUDES);
  }

  /**
   * Stores the valid rows (in batches), counts the duplicates (of the campaign's leads or of an
   * earlier row) and reports the invalid ones; over the campaign's limit nothing is stored.
   */
  async importLeads(
    userId: number,
    campaignId: number,
    rows: readonly ImportRow[],
  ): Promise<Result<ImportReport, 'campaign_not_found' | 'lead_limit'>> {
    return this.s.uow.transaction(async () => {
      const campaign = await this.s.campaigns.findOwned(userId, campaignId, { lock: true });
      if (campaign === null) return err('campaign_not_found' as const);
      const valid = rows.flatMap((r) => (r.ok ? [r.value] : []));
      const taken = await this.s.leads.takenPhones(
        campaign.id,
        valid.filter((l) => !l.allowDuplicate).map((l) => l.phoneNumber),
      );
      const accepted: typeof valid = [];
      let duplicates = 0;
      for (const lead of valid) {
        if (!lead.allowDuplicate && taken.has(lead.phoneNumber)) {
          duplicates++;
          continue;
        }
        taken.add(lead.phoneNumber);
        accepted.push(lead);
      }
      const size = accepted.reduce((n, l) => n + 1 + l.secondaryContacts.length, 0);
      if ((await this.s.leads.countInCampaign(campaign.id)) + size > CAMPAIGN_LIMITS.leadsPerCampaign)
        return err('lead_limit' as const);
      const listed = await this.s.doNotCall.listed(
        userId,
        accepted.flatMap((l) => [l.phoneNumber, ...l.secondaryContacts.map((c) => c.phoneNumber)]),
      );
      await this.s.leads.create(
        userId,
        campaign.id,
        accepted.map((l) => ({
          phoneNumber: l.phoneNumber,
          variables: l.variables,
          status: statusFor(listed, l.phoneNumber),
          secondaryContacts: l.secondaryContacts.map((c) => ({ ...c, status: statusFor(listed, c.phoneNumber) })),
        })),
        this.clock.now(),
      );
      // Stored as `blacklisted` like a single create, but counted apart: they will never be called.
      const doNotCall = accepted.filter((l) => listed.has(l.phoneNumber)).length;
      if (accepted.length > 0 && campaign.status === 'in-progress')
        await scheduleDial(this.s.scheduler, campaign.id, this.clock.now());
      const invalid = rows.flatMap((r, i) => (r.ok ? [] : [{ row: i + 1, errors: r.errors }]));
      return ok({ accepted: accepted.length - doNotCall, duplicates, doNotCall, invalid });
    }, CONCLUDES);
  }

  list(userId: number, filter: LeadFilter, page: PageRequest): Promise<Page<Lead>> {
    return this.s.leads.list(userId, filter, page);
  }

  async get(userId: number, id: number): Promise<Result<Lead, 'lead_not_found'>> {
    const lead = await this.s.leads.findOwned(userId, id);
    return lead ? ok(lead) : err('lead_not_found');
  }

  /** `update` is the request's shape or its field errors: a missing lead is not found even then. */
  async update(
    userId: number,
    id: number,
    update: Result<LeadUpdate, FieldErrors>,
  ): Promise<Result<true, LeadRefusal>> {
    return this.s.uow.transaction(async () => {
      const lead = await this.s.leads.findOwned(userId, id);
      if (lead === null) return err('lead_not_found' as const);
      if (!update.ok) return err({ code: 'invalid_fields' as const, errors: update.error });
      const u = update.value;
      if (u.campaignId !== undefined && u.campaignId !== lead.campaignId) {
        if (lead.primaryLeadId !== null)
          return err({
            code: 'invalid_fields' as const,
            errors: { campaign_id: ['The campaign id cannot be changed on a secondary contact.'] },
          });
        if ((await this.s.campaigns.findOwned(userId, u.campaignId)) === null)
          return err({ code: 'invalid_fields' as const, errors: INVALID_CAMPAIGN });
      }
      const variables = u.variables === undefined ? undefined : mergeVariables(lead.variables, u.variables);
      if (variables !== undefined && Object.keys(variables).length > VARIABLES_MAX) {
        return err({
          code: 'invalid_fields' as const,
          errors: { variables: [`The variables may not have more than ${VARIABLES_MAX} items.`] },
        });
      }
      const moves =
        (u.campaignId !== undefined && u.campaignId !== lead.campaignId) ||
        u.phoneNumber !== undefined ||
        u.status !== undefined;
      if (moves && (await this.s.leads.groupBeingCalled(id, { lock: true }))) return err('being_called' as const);
      const movedCampaign = u.campaignId !== undefined && u.campaignId !== lead.campaignId;
      await this.s.leads.update(
        id,
        {
          campaignId: movedCampaign ? u.campaignId : undefined,
          phoneNumber: u.phoneNumber,
          variables,
          status: u.status ?? (movedCampaign ? 'created' : undefined),
        },
        this.clock.now(),
      );
      // A new number that is listed closes that contact alone (not its group), whatever status the body sent.
      if (u.phoneNumber !== undefined && (await this.s.doNotCall.listed(userId, [u.phoneNumber])).size > 0)
        await this.blacklist(id);
      return ok(true as const);
    });
  }

  private async blacklist(id: number): Promise<void> {
    const group = await this.s.leads.groupOf(id);
    const campaign = group && (await this.s.campaigns.findById(group.campaignId));
    if (!group || !campaign) return;
    const rules = { maxRetries: campaign.maxRetries, retryIntervalMinutes: campaign.retryInterval };
    await this.s.leads.applyGroupChange(group, blacklistContact(group, id, this.clock.now(), rules), this.clock.now());
  }

  async delete(userId: number, id: number): Promise<Result<true, LeadRefusal>> {
    return this.s.uow.transaction(async () => {
      const lead = await this.s.leads.findOwned(userId, id);
      if (lead === null) return err('lead_not_found' as const);
      if (await this.s.leads.groupBeingCalled(id, { lock: true })) return err('being_called' as const);
      await this.s.leads.delete(id);
      return ok(true as const);
    });
  }
}

function mergeVariables(
  current: Readonly<Record<string, string>>,
  sent: Readonly<Record<string, string | null>>,
): Record<string, string> {
  const next: Record<string, string> = { ...current };
  for (const [key, value] of Object.entries(sent)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}
