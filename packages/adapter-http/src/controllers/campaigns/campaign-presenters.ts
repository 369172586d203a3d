import { Campaign, campaignRecord, CampaignStats, Lead } from '@voiceplane/application';
import { iso, isoOrNull } from '../../presenters/format';

export const presentCampaign = (c: Campaign) => campaignRecord(c);

export function presentStats(s: CampaignStats) {
  return {
    leads_by_status: s.leadsByStatus,
    secondary_contacts: s.secondaryContacts,
    calls_total: s.callsTotal,
    calls_answered: s.callsAnswered,
    cost_so_far: s.costSoFar,
    average_call_duration: s.averageCallDuration,
    next_attempt_at: isoOrNull(s.nextAttemptAt),
  };
}

function presentSecondary(l: Lead) {
  return {
    id: l.id,
    phone_number: l.phoneNumber,
    variables: l.variables,
    status: l.status,
    created_at: iso(l.createdAt),
    updated_at: iso(l.updatedAt),
    attempts: l.attempts,
    last_call_id: l.lastCallId,
    timezone_used: l.timezoneUsed,
  };
}

/** A primary with its secondary contacts; a secondary read alone names its primary. */
export function presentLead(l: Lead) {
  return {
    id: l.id,
    campaign_id: l.campaignId,
    phone_number: l.phoneNumber,
    variables: l.variables,
    status: l.status,
    created_at: iso(l.createdAt),
    updated_at: iso(l.updatedAt),
    campaign: { id: l.campaignId, name: l.campaignName },
    secondary_contacts: l.secondaryContacts.map(presentSecondary),
    attempts: l.attempts,
    next_attempt_at: isoOrNull(l.nextAttemptAt),
    last_call_id: l.lastCallId,
    primary_lead_id: l.primaryLeadId,
    timezone_used: l.timezoneUsed,
  };
}
