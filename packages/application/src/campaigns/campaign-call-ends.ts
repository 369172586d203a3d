import { applyAttempt, attemptOutcome, Call, formatTimeOfDay, TerminalCallStatus } from '@voiceplane/domain';
import { completeIfDone, scheduleDial } from './campaign-dialer';
import { Campaign, CampaignRepository, Lead, LeadRepository } from './ports';
import { JobScheduler } from '../events';
import { CampaignCallOutcomes, PlacedBy } from '../calls';
import { Outbox } from '../ports';

export interface CampaignCallEndStores {
  readonly campaigns: CampaignRepository;
  readonly leads: LeadRepository;
  readonly scheduler: JobScheduler;
  readonly outbox: Outbox;
}

/**
 * The attempt outcome of a campaign call, applied inside the transaction that accepts the call's
 * `ended` event (so a repeated event, refused by the call's own transition, changes nothing), before
 * the `post_call` payload is built from the lead and campaign as they then stand.
 */
export class CampaignCallEnds implements CampaignCallOutcomes {
  constructor(private readonly s: CampaignCallEndStores) {}

  async apply(call: Call, status: TerminalCallStatus, at: Date, now: Date): Promise<PlacedBy | null> {
    if (call.campaignId === null || call.leadId === null) return null;
    // Only the group is locked: ends of one campaign's calls run side by side. The dialer never takes a
    // lead of a group with a call open, and the campaign row is locked here only once nothing is pending.
    let campaign = await this.s.campaigns.findById(call.campaignId);
    if (campaign === null) return { lead: null, campaign: null };
    const group = await this.s.leads.groupOf(call.leadId);
    const contact = group?.contacts.find((c) => c.id === call.leadId);
    // Only the call the contact is waiting on decides (the lead was not moved or reset meanwhile).
    if (
      group &&
      contact &&
      contact.status === 'processing' &&
      group.lastCallIds.get(contact.id) === call.id &&
      group.campaignId === campaign.id
    ) {
      const outcome = attemptOutcome(
        { status, endedReason: call.endedReason, extractedVariables: call.extractedVariables },
        {
          retryOnVoicemail: campaign.retryOnVoicemail,
          retryOnGoalIncomplete: campaign.retryOnGoalIncomplete,
          goalCompletionVariable: campaign.goalCompletionVariable,
        },
      );
      const change = applyAttempt(group, contact.id, outcome, at, {
        maxRetries: campaign.maxRetries,
        retryIntervalMinutes: campaign.retryInterval,
      });
      await this.s.leads.applyGroupChange(group, change, now);
      const completed = await completeIfDone(this.s, campaign.id, now);
      if (completed) campaign = completed;
      // The freed line is used at once, not at the next tick.
      else if (campaign.status === 'in-progress') await scheduleDial(this.s.scheduler, campaign.id, now);
    }
    const lead = await this.s.leads.findById(call.leadId);
    return { lead: lead ? postCallLead(lead) : null, campaign: campaign ? postCallCampaign(campaign) : null };
  }
}

const iso = (d: Date) => d.toISOString();

/** The documented six keys, plus the campaign and the primary. */
function postCallLead(l: Lead): Record<string, unknown> {
  return {
    id: l.id,
    phone_number: l.phoneNumber,
    variables: l.variables,
    status: l.status,
    created_at: iso(l.createdAt),
    updated_at: iso(l.updatedAt),
    campaign_id: l.campaignId,
    primary_lead_id: l.primaryLeadId,
  };
}

/** Exactly the eleven documented keys. */
function postCallCampaign(c: Campaign): Record<string, unknown> {
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    allowed_hours_start_time: formatTimeOfDay(c.startMinute),
    allowed_hours_end_time: formatTimeOfDay(c.endMinute),
    allowed_days: [...c.allowedDays],
    max_calls_in_parallel: c.maxCallsInParallel,
    max_retries: c.maxRetries,
    retry_interval: c.retryInterval,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
  };
}
