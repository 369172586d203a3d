import {
  CallSummary,
  GroupChange,
  isTerminal,
  leadTimezone,
  LEAD_STATUSES,
  LeadStatus,
  PENDING_LEAD_STATUSES,
} from '@voiceplane/domain';
import {
  Campaign,
  CampaignRepository,
  CampaignSettings,
  CampaignStats,
  CampaignStatusChange,
  CallRepository,
  DueContact,
  DueZones,
  Lead,
  LeadChanges,
  LeadFilter,
  LeadRepository,
  NewLead,
  Page,
  PageRequest,
  StoredGroup,
} from '@voiceplane/application';
import { copy } from './copy';
import { pageOf } from './paging';

type StoredCampaign = Omit<Campaign, 'leadsCount'> & { callsPlaced: number };
type StoredLead = Omit<Lead, 'secondaryContacts' | 'campaignName' | 'timezoneUsed'> & {
  position: number;
  roundsDone: number;
  /** The contact's own zone; null: the campaign's. */
  timezone: string | null;
};

/** Campaigns and leads in memory, one store for both ports (as the tables are), with the PostgreSQL semantics of the contract. */
export class InMemoryCampaignStore {
  readonly campaigns = new Map<number, StoredCampaign>();
  readonly leads = new Map<number, StoredLead>();
  lastCampaignId = 0;
  lastLeadId = 0;

  /** `calls` answers the campaign's calls (open calls, stats). */
  constructor(readonly calls: CallRepository) {}

  campaignOf(c: StoredCampaign): Campaign {
    const { callsPlaced: _placed, ...rest } = c;
    const leadsCount = [...this.leads.values()].filter((l) => l.campaignId === c.id && l.primaryLeadId === null).length;
    return copy({ ...rest, leadsCount });
  }

  leadOf(l: StoredLead): Lead {
    const { position: _p, roundsDone: _r, timezone, ...rest } = l;
    const campaign = this.campaigns.get(l.campaignId);
    const campaignName = campaign?.name ?? '';
    const campaignZone = campaign?.timezone ?? 'UTC';
    const timezoneUsed = campaign?.windowInLeadTimezone ? (timezone ?? campaignZone) : campaignZone;
    const secondaryContacts =
      l.primaryLeadId !== null
        ? []
        : this.groupRows(l.id)
            .slice(1)
            .map((s) => this.leadOf(s));
    return copy({ ...rest, campaignName, secondaryContacts, timezoneUsed });
  }

  /** The primary first, then its secondary contacts by position. */
  groupRows(primaryId: number): StoredLead[] {
    return [...this.leads.values()]
      .filter((l) => l.id === primaryId || l.primaryLeadId === primaryId)
      .sort((a, b) => a.position - b.position || a.id - b.id);
  }

  async campaignCalls(c: StoredCampaign): Promise<CallSummary[]> {
    return (await this.calls.list(c.userId, { campaignId: c.id }, { page: 1, perPage: Number.MAX_SAFE_INTEGER })).items;
  }
}

export class InMemoryCampaignRepository implements CampaignRepository {
  constructor(private readonly store: InMemoryCampaignStore) {}

  async create(userId: number, settings: CampaignSettings, now: Date): Promise<Campaign> {
    const id = ++this.store.lastCampaignId;
    this.store.campaigns.set(
      id,
      copy({
        ...settings,
        id,
        userId,
        status: 'draft',
        stopReason: null,
        startedAt: null,
        completedAt: null,
        createdAt: now,
        updatedAt: now,
        callsPlaced: 0,
      }),
    );
    return this.store.campaignOf(this.store.campaigns.get(id)!);
  }

  async count(userId: number): Promise<number> {
    return [...this.store.campaigns.values()].filter((c) => c.userId === userId).length;
  }

  async list(userId: number): Promise<Campaign[]> {
    return [...this.store.campaigns.values()]
      .filter((c) => c.userId === userId)
      .sort((a, b) => a.id - b.id)
      .map((c) => this.store.campaignOf(c));
  }

  async findOwned(userId: number, id: number): Promise<Campaign | null> {
    const c = this.store.campaigns.get(id);
    return c && c.userId === userId ? this.store.campaignOf(c) : null;
  }

  async update(id: number, settings: CampaignSettings, now: Date): Promise<void> {
    const c = this.store.campaigns.get(id);
    if (c) this.store.campaigns.set(id, copy({ ...c, ...settings, updatedAt: now }));
  }

  async setStatus(id: number, change: CampaignStatusChange, now: Date): Promise<void> {
    const c = this.store.campaigns.get(id);
    if (c)
      this.store.campaigns.set(id, { ...c, ...change, startedAt: change.startedAt ?? c.startedAt, updatedAt: now });
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const c = this.store.campaigns.get(id);
    if (!c || c.userId !== userId) return false;
    this.store.campaigns.delete(id);
    for (const l of [...this.store.leads.values()]) if (l.campaignId === id) this.store.leads.delete(l.id);
    return true;
  }

  async stats(id: number): Promise<CampaignStats> {
    const leadsByStatus = Object.fromEntries(LEAD_STATUSES.map((s) => [s, 0])) as Record<LeadStatus, number>;
    const rows = [...this.store.leads.values()].filter((l) => l.campaignId === id);
    for (const l of rows) if (l.primaryLeadId === null) leadsByStatus[l.status]++;
    const waits = rows
      .filter((l) => l.status === 'rescheduled' && l.nextAttemptAt !== null)
      .map((l) => l.nextAttemptAt!.getTime());
    const c = this.store.campaigns.get(id);
    const calls = c ? await this.store.campaignCalls(c) : [];
    const answered = calls.filter((call) => call.answeredAt !== null);
    const ended = answered.filter((call) => call.finishedAt !== null);
    return {
      leadsByStatus,
      secondaryContacts: rows.filter((l) => l.primaryLeadId !== null).length,
      callsTotal: calls.length,
      callsAnswered: answered.length,
      costSoFar: calls.reduce((sum, call) => sum + call.cost, 0),
      averageCallDuration:
        ended.length === 0 ? 0 : Math.round(ended.reduce((sum, call) => sum + call.duration, 0) / ended.length),
      nextAttemptAt: waits.length === 0 ? null : new Date(Math.min(...waits)),
    };
  }

  async findById(id: number): Promise<Campaign | null> {
    const c = this.store.campaigns.get(id);
    return c ? this.store.campaignOf(c) : null;
  }

  async countOpenCalls(id: number): Promise<number> {
    const c = this.store.campaigns.get(id);
    return c ? (await this.store.campaignCalls(c)).filter((call) => !isTerminal(call.status)).length : 0;
  }

  async takeCallTurn(id: number): Promise<number> {
    const c = this.store.campaigns.get(id);
    if (!c) return 0;
    c.callsPlaced += 1;
    return c.callsPlaced - 1;
  }
}

export class InMemoryLeadRepository implements LeadRepository {
  constructor(private readonly store: InMemoryCampaignStore) {}

  async create(userId: number, campaignId: number, leads: readonly NewLead[], now: Date): Promise<number[]> {
    const add = (contact: NewLead['secondaryContacts'][number], primaryLeadId: number | null, position: number) => {
      const id = ++this.store.lastLeadId;
      this.store.leads.set(
        id,
        copy({
          id,
          userId,
          campaignId,
          primaryLeadId,
          position,
          roundsDone: 0,
          phoneNumber: contact.phoneNumber,
          variables: contact.variables,
          status: contact.status,
          attempts: 0,
          nextAttemptAt: null,
          lastCallId: null,
          timezone: leadTimezone(contact.variables, contact.phoneNumber),
          createdAt: now,
          updatedAt: now,
        }),
      );
      return id;
    };
    return leads.map((lead) => {
      const id = add(lead, null, 0);
      lead.secondaryContacts.forEach((c, i) => add(c, id, i + 1));
      return id;
    });
  }

  async countInCampaign(campaignId: number): Promise<number> {
    return [...this.store.leads.values()].filter((l) => l.campaignId === campaignId).length;
  }

  async takenPhones(campaignId: number, phones: readonly string[]): Promise<Set<string>> {
    const wanted = new Set(phones);
    return new Set(
      [...this.store.leads.values()]
        .filter((l) => l.campaignId === campaignId && l.primaryLeadId === null && wanted.has(l.phoneNumber))
        .map((l) => l.phoneNumber),
    );
  }

  async list(userId: number, filter: LeadFilter, page: PageRequest): Promise<Page<Lead>> {
    const matches = (l: StoredLead) =>
      (filter.status === undefined || l.status === filter.status) &&
      (filter.campaignId === undefined || l.campaignId === filter.campaignId) &&
      (filter.phoneNumber === undefined ||
        this.store.groupRows(l.id).some((c) => c.phoneNumber.includes(filter.phoneNumber!))) &&
      (filter.createdFrom === undefined || l.createdAt >= filter.createdFrom) &&
      (filter.createdBefore === undefined || l.createdAt < filter.createdBefore);
    const rows = [...this.store.leads.values()]
      .filter((l) => l.userId === userId && l.primaryLeadId === null && matches(l))
      .sort((a, b) => b.id - a.id);
    const found = pageOf(rows, page);
    return { items: found.items.map((l) => this.store.leadOf(l)), total: found.total };
  }

  async findOwned(userId: number, id: number): Promise<Lead | null> {
    const l = this.store.leads.get(id);
    return l && l.userId === userId ? this.store.leadOf(l) : null;
  }

  async groupBeingCalled(id: number): Promise<boolean> {
    const l = this.store.leads.get(id);
    return l ? this.store.groupRows(l.primaryLeadId ?? l.id).some((c) => c.status === 'processing') : false;
  }

  async update(id: number, changes: LeadChanges, now: Date): Promise<void> {
    const l = this.store.leads.get(id);
    if (!l) return;
    Object.assign(
      l,
      copy({
        phoneNumber: changes.phoneNumber ?? l.phoneNumber,
        variables: changes.variables ?? l.variables,
        timezone: leadTimezone(changes.variables ?? l.variables, changes.phoneNumber ?? l.phoneNumber),
        updatedAt: now,
      }),
    );
    const group = l.primaryLeadId === null ? this.store.groupRows(l.id) : [l];
    for (const c of group) {
      if (changes.campaignId !== undefined) Object.assign(c, { campaignId: changes.campaignId, updatedAt: now });
      if (changes.status !== undefined) {
        Object.assign(c, { status: changes.status, nextAttemptAt: null, updatedAt: now });
        if (changes.status === 'created') Object.assign(c, { attempts: 0, roundsDone: 0 });
      }
    }
  }

  /** A primary goes with its secondary contacts; a secondary goes alone. */
  async delete(id: number): Promise<void> {
    const l = this.store.leads.get(id);
    if (!l) return;
    for (const c of l.primaryLeadId === null ? this.store.groupRows(id) : [l]) this.store.leads.delete(c.id);
  }

  async hasPending(campaignId: number): Promise<boolean> {
    return [...this.store.leads.values()].some(
      (l) => l.campaignId === campaignId && PENDING_LEAD_STATUSES.includes(l.status),
    );
  }

  async promoteDueRounds(campaignId: number, at: Date): Promise<void> {
    for (const l of this.store.leads.values()) {
      if (
        l.campaignId === campaignId &&
        l.status === 'rescheduled' &&
        l.nextAttemptAt !== null &&
        l.nextAttemptAt <= at
      )
        Object.assign(l, { status: 'scheduled' });
    }
  }

  async dueZones(campaignId: number): Promise<Array<string | null>> {
    const due = [...this.store.leads.values()].filter(
      (l) => l.campaignId === campaignId && (l.status === 'created' || l.status === 'scheduled'),
    );
    return [...new Set(due.map((l) => l.timezone))];
  }

  async dueContacts(campaignId: number, limit: number, zones?: DueZones): Promise<DueContact[]> {
    const dueAt = (l: StoredLead) =>
      (l.status === 'created' ? l.createdAt : (l.nextAttemptAt ?? l.createdAt)).getTime();
    const candidates = [...this.store.leads.values()]
      .filter((l) => {
        if (l.campaignId !== campaignId || (l.status !== 'created' && l.status !== 'scheduled')) return false;
        if (zones !== undefined && !zones.includes(l.timezone)) return false;
        const group = this.store.groupRows(l.primaryLeadId ?? l.id);
        return !group.some(
          (c) =>
            c.status === 'processing' ||
            ((c.status === 'created' || c.status === 'scheduled') && c.position < l.position),
        );
      })
      .sort((a, b) => dueAt(a) - dueAt(b) || a.id - b.id);
    return candidates.slice(0, limit).map((l) => {
      const primary = l.primaryLeadId === null ? null : this.store.leads.get(l.primaryLeadId);
      return { id: l.id, phoneNumber: l.phoneNumber, variables: { ...(primary?.variables ?? {}), ...l.variables } };
    });
  }

  async markCalling(id: number, callId: number, now: Date): Promise<void> {
    const l = this.store.leads.get(id);
    if (l) Object.assign(l, { status: 'processing', lastCallId: callId, updatedAt: now });
  }

  async groupOf(id: number): Promise<StoredGroup | null> {
    const l = this.store.leads.get(id);
    if (!l) return null;
    const rows = this.store.groupRows(l.primaryLeadId ?? l.id);
    const head = rows[0];
    return {
      primaryId: head.id,
      campaignId: head.campaignId,
      roundsDone: head.roundsDone,
      contacts: rows.map((c) => ({ id: c.id, status: c.status, attempts: c.attempts })),
      lastCallIds: new Map(rows.map((c) => [c.id, c.lastCallId])),
    };
  }

  async applyGroupChange(group: StoredGroup, change: GroupChange, now: Date): Promise<void> {
    for (const c of group.contacts) {
      const row = this.store.leads.get(c.id);
      if (!row) continue;
      const status = change.statuses.get(c.id);
      const attempts = change.attempts.get(c.id);
      if (status !== undefined)
        Object.assign(row, {
          status,
          nextAttemptAt: status === 'rescheduled' ? change.nextAttemptAt : null,
          updatedAt: now,
        });
      if (attempts !== undefined) Object.assign(row, { attempts, updatedAt: now });
    }
    const primary = this.store.leads.get(group.primaryId);
    if (primary) Object.assign(primary, { roundsDone: change.roundsDone });
  }

  async findById(id: number): Promise<Lead | null> {
    const l = this.store.leads.get(id);
    return l ? this.store.leadOf(l) : null;
  }
}
