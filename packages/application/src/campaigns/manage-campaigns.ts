import {
  balanceForNewCall,
  CallMinutePrices,
  canAfford,
  canStart,
  canStop,
  CampaignStatus,
  err,
  FieldErrors,
  hasFieldErrors,
  ok,
  Result,
} from '@voiceplane/domain';
import { AssistantRepository } from '../assistants';
import { CallerLines } from '../calls';
import { CallRepository } from '../calls';
import { UserRepository } from '../ports';
import { Clock } from '../ports';
import { Outbox } from '../ports';
import { CONCLUDES, UnitOfWork } from '../ports';
import { PhoneNumberRepository } from '../telephony';
import {
  CampaignInput,
  GOAL_VARIABLE_UNKNOWN,
  goalVariableKnown,
  merged,
  settingsProblems,
  withDefaults,
} from './campaign-settings';
import { campaignEvent } from './campaign-events';
import { scheduleDial } from './campaign-dialer';
import { JobScheduler } from '../events';
import { Campaign, CampaignRepository, CampaignStats, LeadRepository } from './ports';

export type InvalidCampaignFields = { readonly code: 'invalid_fields'; readonly errors: FieldErrors };
export type CampaignWriteRefusal =
  | InvalidCampaignFields
  | 'assistant_not_found'
  | 'campaign_not_found'
  | 'plan_limit'
  | 'already_in_progress';

/** Refusals of start and stop, in the order they are checked. */
export type CampaignStatusRefusal =
  | 'campaign_not_found'
  | 'not_running'
  | 'already_in_progress'
  | 'assistant_unavailable'
  | 'compliance_blocked'
  | 'no_caller_line'
  | 'no_leads'
  | 'insufficient_balance';

export interface CampaignStatusAnswer {
  readonly campaignId: number;
  readonly status: CampaignStatus;
}

/** Where campaigns and what they depend on are read and written. */
export interface CampaignStores {
  readonly uow: UnitOfWork;
  readonly campaigns: CampaignRepository;
  readonly leads: LeadRepository;
  readonly assistants: AssistantRepository;
  readonly users: UserRepository;
  readonly phoneNumbers: PhoneNumberRepository;
  readonly calls: CallRepository;
  readonly outbox: Outbox;
  readonly scheduler: JobScheduler;
}

/** What a start checks besides the stores: the caller line and the price of a minute. */
export interface CampaignStartChecks {
  readonly lines: CallerLines;
  readonly prices: CallMinutePrices;
}

/** Campaign routes: create, read, update, start and stop, delete; another account's campaign is never found. */
export class ManageCampaigns {
  constructor(
    private readonly s: CampaignStores,
    private readonly checks: CampaignStartChecks,
    private readonly clock: Clock,
  ) {}

  async create(
    userId: number,
    input: CampaignInput & { readonly assistantId: number },
  ): Promise<Result<Campaign, CampaignWriteRefusal>> {
    const user = await this.s.users.findById(userId);
    if (user === null) return err('assistant_not_found');
    const assistant = await this.s.assistants.findOwned(userId, input.assistantId);
    const maxCalls = user.plan.max_concurrent_calls;
    const draft = assistant ? withDefaults(input, assistant, maxCalls) : null;
    const problems = draft ? await this.problems(userId, draft, maxCalls) : {};
    if (hasFieldErrors(problems)) return err({ code: 'invalid_fields', errors: problems });
    if (assistant === null || draft === null || assistant.type !== 'outbound') return err('assistant_not_found');
    if (!goalVariableKnown(draft, assistant)) return err({ code: 'invalid_fields', errors: GOAL_VARIABLE_UNKNOWN });
    return this.s.uow.transaction(async () => {
      await this.s.users.lockBalance(userId);
      if ((await this.s.campaigns.count(userId)) >= user.plan.max_campaigns) return err('plan_limit');
      return ok(await this.s.campaigns.create(userId, draft, this.clock.now()));
    }, CONCLUDES);
  }

  list(userId: number): Promise<Campaign[]> {
    return this.s.campaigns.list(userId);
  }

  async get(
    userId: number,
    id: number,
  ): Promise<Result<{ readonly campaign: Campaign; readonly stats: CampaignStats }, 'campaign_not_found'>> {
    const campaign = await this.s.campaigns.findOwned(userId, id);
    if (campaign === null) return err('campaign_not_found');
    return ok({ campaign, stats: await this.s.campaigns.stats(id) });
  }

  /** `input` is the request's shape, or its field errors: a missing campaign is not found even then. */
  async update(
    userId: number,
    id: number,
    input: Result<CampaignInput, FieldErrors>,
  ): Promise<Result<Campaign, CampaignWriteRefusal>> {
    const user = await this.s.users.findById(userId);
    return this.s.uow.transaction(async () => {
      const current = await this.s.campaigns.findOwned(userId, id, { lock: true });
      if (current === null || user === null) return err('campaign_not_found');
      if (!input.ok) return err({ code: 'invalid_fields', errors: input.error });
      if (current.status === 'in-progress') return err('already_in_progress');
      const next = merged(current, input.value);
      const problems = await this.problems(userId, next, user.plan.max_concurrent_calls);
      if (hasFieldErrors(problems)) return err({ code: 'invalid_fields', errors: problems });
      const assistant = await this.s.assistants.findOwned(userId, next.assistantId);
      if (assistant === null || assistant.type !== 'outbound') return err('assistant_not_found');
      if (!goalVariableKnown(next, assistant)) return err({ code: 'invalid_fields', errors: GOAL_VARIABLE_UNKNOWN });
      await this.s.campaigns.update(id, next, this.clock.now());
      return ok((await this.s.campaigns.findOwned(userId, id)) as Campaign);
    });
  }

  async delete(userId: number, id: number): Promise<Result<true, 'campaign_not_found'>> {
    return (await this.s.campaigns.delete(userId, id)) ? ok(true) : err('campaign_not_found');
  }

  /** Start or stop, checked in contract order under the campaign's row lock. */
  async changeStatus(
    userId: number,
    id: number,
    action: 'start' | 'stop',
  ): Promise<Result<CampaignStatusAnswer, { readonly code: CampaignStatusRefusal; readonly status?: CampaignStatus }>> {
    return this.s.uow.transaction(async () => {
      const campaign = await this.s.campaigns.findOwned(userId, id, { lock: true });
      if (campaign === null) return err({ code: 'campaign_not_found' as const });
      const now = this.clock.now();
      const refuse = (code: CampaignStatusRefusal) => err({ code, status: campaign.status });
      if (action === 'stop') {
        const stop = canStop(campaign.status);
        if (!stop.ok) return refuse(stop.error);
        if (stop.value.changed) {
          await this.s.campaigns.setStatus(id, { status: 'stopped', stopReason: 'user', completedAt: null }, now);
          await this.s.outbox.add([
            campaignEvent('campaign.stopped', { ...campaign, status: 'stopped', stopReason: 'user', updatedAt: now }),
          ]);
        }
        return ok({ campaignId: id, status: 'stopped' as const });
      }
      const start = canStart(campaign.status);
      if (!start.ok) return refuse(start.error);
      const refusal = await this.startRefusal(userId, campaign);
      if (refusal !== null) return refuse(refusal);
      const startedAt = campaign.startedAt ?? now;
      await this.s.campaigns.setStatus(
        id,
        { status: 'in-progress', stopReason: null, startedAt, completedAt: null },
        now,
      );
      await this.s.outbox.add([
        campaignEvent('campaign.started', {
          ...campaign,
          status: 'in-progress',
          stopReason: null,
          startedAt,
          completedAt: null,
          updatedAt: now,
        }),
      ]);
      await scheduleDial(this.s.scheduler, id, now);
      return ok({ campaignId: id, status: 'in-progress' as const });
    }, CONCLUDES);
  }

  /** assistant → compliance → caller line → leads → balance. */
  private async startRefusal(userId: number, campaign: Campaign): Promise<CampaignStatusRefusal | null> {
    const assistant = await this.s.assistants.findOwned(userId, campaign.assistantId);
    if (assistant === null || assistant.type !== 'outbound') return 'assistant_unavailable';
    if (assistant.complianceBlocked) return 'compliance_blocked';
    if (
      campaign.phoneNumberIds.length === 0 &&
      (await this.checks.lines.forAssistant(userId, assistant.phoneNumberId)) === null
    )
      return 'no_caller_line';
    if (!(await this.s.leads.hasPending(campaign.id))) return 'no_leads';
    const balance = await this.s.users.lockBalance(userId);
    const prices = this.checks.prices;
    if (
      balance === null ||
      !canAfford(balanceForNewCall(balance, await this.s.calls.openCallCounts(userId), prices), prices.phone)
    )
      return 'insufficient_balance';
    return null;
  }

  private async problems(
    userId: number,
    settings: Parameters<typeof settingsProblems>[0],
    maxCalls: number,
  ): Promise<FieldErrors> {
    const owned =
      settings.phoneNumberIds.length === 0
        ? new Set<number>()
        : new Set((await this.s.phoneNumbers.list(userId)).map((n) => n.id));
    return settingsProblems(settings, maxCalls, owned);
  }
}
