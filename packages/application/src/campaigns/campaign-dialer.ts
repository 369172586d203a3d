import { blacklistContact, Call, CallingWindow, err, ok, Result, StopReason, windowOpen } from '@voiceplane/domain';
import { MakeCall, MakeCallRefusal, PreparedCall } from '../calls';
import { CallerLines } from '../calls';
import { JobHandler, JobScheduler, WorkLogger } from '../events';
import { Clock } from '../ports';
import { Outbox } from '../ports';
import { UnitOfWork } from '../ports';
import { campaignEvent } from './campaign-events';
import { Campaign, CampaignRepository, DueZones, LeadRepository } from './ports';

/** Job kind: one dialer pass over one campaign; at most one job per campaign exists (its key). */
export const CAMPAIGN_DIAL_JOB = 'campaign.dial';
/** Passes of a running campaign with nothing else to wake it. */
export const DIAL_TICK_MS = 10_000;

export const dialJobKey = (campaignId: number) => `campaign-dial:${campaignId}`;

/** Schedules the campaign's next pass at `at` (replacing a later one): a start, a new lead, an ended call. */
export function scheduleDial(scheduler: JobScheduler, campaignId: number, at: Date): Promise<void> {
  return scheduler.schedule({
    kind: CAMPAIGN_DIAL_JOB,
    key: dialJobKey(campaignId),
    payload: { campaign_id: campaignId },
    runAt: at,
  });
}

export interface DialerStores {
  readonly uow: UnitOfWork;
  readonly campaigns: CampaignRepository;
  readonly leads: LeadRepository;
  readonly outbox: Outbox;
  readonly scheduler: JobScheduler;
}

export interface DialerCalls {
  readonly makeCall: MakeCall;
  readonly lines: CallerLines;
}

/** What one pass did. */
export interface DialPass {
  readonly placed: readonly number[];
  /** Due contacts found on the do-not-call list and closed without a call. */
  readonly blacklisted: number;
  /** False when the campaign no longer dials (stopped, completed, deleted). */
  readonly running: boolean;
}

const windowOf = (c: Campaign): CallingWindow => ({
  timezone: c.timezone,
  days: c.allowedDays,
  startMinute: c.startMinute,
  endMinute: c.endMinute,
});

/**
 * The dialer: one pass over one campaign, under its row lock (a pass another instance holds is
 * skipped). Calls are placed through make_call's own steps — checks, storage under the account's
 * balance lock with the plan's concurrency, the watchdog — in the transaction that marks their
 * contacts `processing`, and handed to the runtime after the commit.
 */
export class CampaignDialer {
  constructor(
    private readonly s: DialerStores,
    private readonly calls: DialerCalls,
    private readonly clock: Clock,
    private readonly log: WorkLogger,
  ) {}

  /** The sandbox tick: a pass over the caller's own campaign now, as if the clock read `at`. */
  async tick(userId: number, campaignId: number, at: Date): Promise<Result<readonly number[], 'not_found'>> {
    if ((await this.s.campaigns.findOwned(userId, campaignId)) === null) return err('not_found');
    return ok((await this.pass(campaignId, at)).placed);
  }

  /** One pass, reading the window and due times as of `at`. */
  async pass(campaignId: number, at: Date): Promise<DialPass> {
    const placed: Array<{ call: Call; prepared: PreparedCall }> = [];
    let blacklisted = 0;
    const running = await this.s.uow.transaction(async () => {
      const campaign = await this.s.campaigns.findById(campaignId, { skipLocked: true });
      if (campaign === null) return (await this.s.campaigns.findById(campaignId)) !== null;
      if (campaign.status !== 'in-progress') return false;
      await this.s.leads.promoteDueRounds(campaign.id, at);
      if (await completeIfDone(this.s, campaign.id, this.clock.now())) return false;
      const zones = await this.openZones(campaign, at);
      if (zones !== undefined && zones.length === 0) return true;
      const free = campaign.maxCallsInParallel - (await this.s.campaigns.countOpenCalls(campaign.id));
      if (free <= 0) return true;
      for (const contact of await this.s.leads.dueContacts(campaign.id, free, zones)) {
        const line = await this.lineFor(campaign);
        const request = {
          userId: campaign.userId,
          assistantId: campaign.assistantId,
          phoneNumber: contact.phoneNumber,
          variables: contact.variables,
          campaignId: campaign.id,
          leadId: contact.id,
        };
        const prepared =
          line === 'none'
            ? { ok: false as const, error: 'no_caller_line' as const }
            : await this.calls.makeCall.prepare(request, line ?? undefined);
        if (!prepared.ok) {
          if (prepared.error !== 'do_not_call') return this.stop(campaign, stopReasonOf(prepared.error));
          await this.blacklist(campaign, contact.id, at);
          blacklisted++;
          continue;
        }
        const call = await this.calls.makeCall.store(prepared.value);
        // The account's other calls fill the plan: wait for one to end, counting nothing.
        if (call === 'too_many_calls') return true;
        if (call === 'insufficient_balance') return this.stop(campaign, 'insufficient_balance');
        await this.s.leads.markCalling(contact.id, call.id, this.clock.now());
        placed.push({ call, prepared: prepared.value });
      }
      return true;
    });
    // Handed over side by side, as concurrent make_calls are: a runtime's answer for one call does not hold up the next.
    await Promise.all(placed.map(({ call, prepared }) => this.calls.makeCall.dispatch(call, prepared)));
    return { placed: placed.map((p) => p.call.id), blacklisted, running };
  }

  /** A listed contact is closed without a call or an attempt; its group's round goes on without it. */
  private async blacklist(campaign: Campaign, contactId: number, at: Date): Promise<void> {
    const group = await this.s.leads.groupOf(contactId);
    if (group === null) return;
    const rules = { maxRetries: campaign.maxRetries, retryIntervalMinutes: campaign.retryInterval };
    await this.s.leads.applyGroupChange(group, blacklistContact(group, contactId, at, rules), this.clock.now());
  }

  /**
   * Where the window is open at `at`: undefined (every contact) or nothing when the campaign reads
   * it in its own zone; else the zones of due contacts whose window is open (null: the campaign's).
   */
  private async openZones(campaign: Campaign, at: Date): Promise<DueZones | undefined> {
    const window = windowOf(campaign);
    if (!campaign.windowInLeadTimezone) return windowOpen(window, at) ? undefined : [];
    const zones = await this.s.leads.dueZones(campaign.id);
    return zones.filter((zone) => windowOpen({ ...window, timezone: zone ?? campaign.timezone }, at));
  }

  /** The pool's next number when the campaign has a pool; undefined: the assistant's line. */
  private async lineFor(campaign: Campaign) {
    if (campaign.phoneNumberIds.length === 0) return undefined;
    const turn = await this.s.campaigns.takeCallTurn(campaign.id);
    const id = campaign.phoneNumberIds[turn % campaign.phoneNumberIds.length];
    return (await this.calls.lines.forAssistant(campaign.userId, id)) ?? 'none';
  }

  private async stop(campaign: Campaign, reason: StopReason): Promise<false> {
    const now = this.clock.now();
    this.log.info({ campaignId: campaign.id, reason }, 'the dialer stopped a campaign');
    await this.s.campaigns.setStatus(campaign.id, { status: 'stopped', stopReason: reason, completedAt: null }, now);
    await this.s.outbox.add([
      campaignEvent('campaign.stopped', { ...campaign, status: 'stopped', stopReason: reason, updatedAt: now }),
    ]);
    return false;
  }
}

/**
 * A running campaign with nothing pending completes when it is set to: checked first without a lock
 * (the common answer is "still pending"), then again under the campaign's row lock, so a pass and
 * call ends racing for it complete it once. The completed campaign, or null.
 */
export async function completeIfDone(
  s: Pick<DialerStores, 'campaigns' | 'leads' | 'outbox'>,
  campaignId: number,
  now: Date,
): Promise<Campaign | null> {
  if (await s.leads.hasPending(campaignId)) return null;
  const campaign = await s.campaigns.findById(campaignId, { lock: true });
  if (
    campaign === null ||
    campaign.status !== 'in-progress' ||
    !campaign.markCompleteWhenNoLeads ||
    (await s.leads.hasPending(campaignId))
  )
    return null;
  await s.campaigns.setStatus(campaign.id, { status: 'completed', stopReason: null, completedAt: now }, now);
  const completed: Campaign = { ...campaign, status: 'completed', completedAt: now, updatedAt: now };
  await s.outbox.add([campaignEvent('campaign.completed', completed)]);
  return completed;
}

function stopReasonOf(refusal: Exclude<MakeCallRefusal, 'do_not_call'>): StopReason {
  return refusal === 'insufficient_balance' || refusal === 'no_caller_line' ? refusal : 'assistant_unavailable';
}

/** Runs a pass when due and schedules the next while the campaign runs. */
export function campaignDialJob(dialer: CampaignDialer, scheduler: JobScheduler, clock: Clock): JobHandler {
  return {
    kind: CAMPAIGN_DIAL_JOB,
    handle: async (job) => {
      const campaignId = (job.payload as { campaign_id: number }).campaign_id;
      const { placed, blacklisted, running } = await dialer.pass(campaignId, clock.now());
      // A pass that placed calls may have left lines free (calls that ended at once), and one that closed listed
      // contacts left their lines unused: look again now.
      // Otherwise the next tick, unless an ended call or a new lead moves the job sooner.
      if (running)
        await scheduleDial(
          scheduler,
          campaignId,
          new Date(clock.now().getTime() + (placed.length + blacklisted > 0 ? 0 : DIAL_TICK_MS)),
        );
    },
  };
}
