import { WEEKDAYS } from '@voiceplane/domain';
import { CampaignRepository, CampaignSettings, LeadRepository, NewLead } from '@voiceplane/application';

export interface CampaignFixture {
  readonly campaigns: CampaignRepository;
  readonly leads: LeadRepository;
  /** Two accounts campaigns may belong to. */
  readonly users: readonly [number, number];
}

const settings: CampaignSettings = {
  name: 'Spring',
  assistantId: 7,
  timezone: 'Europe/Berlin',
  maxCallsInParallel: 3,
  markCompleteWhenNoLeads: true,
  startMinute: 540,
  endMinute: 1020,
  allowedDays: WEEKDAYS,
  maxRetries: 2,
  retryInterval: 60,
  retryOnVoicemail: false,
  retryOnGoalIncomplete: false,
  goalCompletionVariable: null,
  phoneNumberIds: [4, 5],
  windowInLeadTimezone: false,
};
const T0 = new Date('2030-04-01T09:00:00.000Z');
const later = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const lead = (phoneNumber: string, secondaries: string[] = [], variables: Record<string, string> = {}): NewLead => ({
  phoneNumber,
  variables,
  status: 'created',
  secondaryContacts: secondaries.map((p) => ({ phoneNumber: p, variables: { who: p }, status: 'created' })),
});

/** The CampaignRepository and LeadRepository ports' behaviour, run against every implementation. */
export function campaignRepositoriesContract(name: string, open: () => Promise<CampaignFixture>): void {
  describe(`Campaign and lead repositories contract: ${name}`, () => {
    let f: CampaignFixture;
    let user: number;
    let other: number;

    beforeEach(async () => {
      f = await open();
      [user, other] = f.users;
    });

    it('stores a draft campaign that only its account finds, lists id ascending, and reads back what it holds', async () => {
      const a = await f.campaigns.create(user, settings, T0);
      const b = await f.campaigns.create(user, { ...settings, name: 'Summer', phoneNumberIds: [] }, T0);
      expect(a).toEqual({
        ...settings,
        id: a.id,
        userId: user,
        status: 'draft',
        stopReason: null,
        startedAt: null,
        completedAt: null,
        createdAt: T0,
        updatedAt: T0,
        leadsCount: 0,
      });
      expect((await f.campaigns.list(user)).map((c) => c.id)).toEqual([a.id, b.id]);
      expect(await f.campaigns.list(other)).toEqual([]);
      expect(await f.campaigns.findOwned(other, a.id)).toBeNull();
      expect(await f.campaigns.count(user)).toBe(2);
      expect(await f.campaigns.delete(other, a.id)).toBe(false);
    });

    it('updates settings and status; a status change without a start time keeps the first', async () => {
      const c = await f.campaigns.create(user, settings, T0);
      await f.campaigns.update(c.id, { ...settings, name: 'Renamed', allowedDays: ['monday'] }, later(1));
      await f.campaigns.setStatus(
        c.id,
        { status: 'in-progress', stopReason: null, startedAt: later(2), completedAt: null },
        later(2),
      );
      await f.campaigns.setStatus(c.id, { status: 'stopped', stopReason: 'user', completedAt: null }, later(3));
      await f.campaigns.setStatus(c.id, { status: 'in-progress', stopReason: null, completedAt: null }, later(4));
      expect(await f.campaigns.findById(c.id)).toMatchObject({
        name: 'Renamed',
        allowedDays: ['monday'],
        status: 'in-progress',
        startedAt: later(2),
        updatedAt: later(4),
      });
      expect([await f.campaigns.takeCallTurn(c.id), await f.campaigns.takeCallTurn(c.id)]).toEqual([0, 1]);
    });

    it('stores leads with their secondary contacts in order; lists primaries newest first with filters', async () => {
      const c = await f.campaigns.create(user, settings, T0);
      const [first, second] = await f.leads.create(
        user,
        c.id,
        [lead('+14155550001', ['+14155550011', '+14155550012']), lead('+4930123456')],
        T0,
      );
      const read = await f.leads.findOwned(user, first);
      expect(read).toMatchObject({
        campaignId: c.id,
        campaignName: 'Spring',
        primaryLeadId: null,
        status: 'created',
        attempts: 0,
      });
      expect(read?.secondaryContacts.map((s) => [s.phoneNumber, s.primaryLeadId, s.variables])).toEqual([
        ['+14155550011', first, { who: '+14155550011' }],
        ['+14155550012', first, { who: '+14155550012' }],
      ]);
      expect(await f.leads.findOwned(other, first)).toBeNull();
      const page = { page: 1, perPage: 10 };
      expect((await f.leads.list(user, {}, page)).items.map((l) => l.id)).toEqual([second, first]);
      expect((await f.leads.list(user, { phoneNumber: '550012' }, page)).items.map((l) => l.id)).toEqual([first]);
      expect((await f.leads.list(user, { campaignId: c.id, status: 'completed' }, page)).total).toBe(0);
      expect((await f.leads.list(other, {}, page)).total).toBe(0);
      expect(await f.leads.countInCampaign(c.id)).toBe(4);
      expect(await f.leads.takenPhones(c.id, ['+14155550001', '+14155550011', '+1999'])).toEqual(
        new Set(['+14155550001']),
      );
      expect((await f.campaigns.findById(c.id))?.leadsCount).toBe(2);
    });

    it('gives the dialer the first due contact of each idle group, oldest first, and none of a group being called', async () => {
      const c = await f.campaigns.create(user, settings, T0);
      const [a] = await f.leads.create(user, c.id, [lead('+14155550001', ['+14155550011'], { name: 'A' })], T0);
      const [b] = await f.leads.create(user, c.id, [lead('+14155550002')], later(1));
      expect((await f.leads.dueContacts(c.id, 10)).map((d) => d.id)).toEqual([a, b]);
      expect(await f.leads.dueContacts(c.id, 1)).toEqual([
        { id: a, phoneNumber: '+14155550001', variables: { name: 'A' } },
      ]);
      await f.leads.markCalling(a, 99, later(2));
      expect(await f.leads.groupBeingCalled(a)).toBe(true);
      expect((await f.leads.dueContacts(c.id, 10)).map((d) => d.id)).toEqual([b]);
      const group = await f.leads.groupOf(a);
      expect(group).toMatchObject({ primaryId: a, campaignId: c.id, roundsDone: 0 });
      const secondary = group!.contacts[1].id;
      expect(group?.lastCallIds.get(a)).toBe(99);
      // The primary failed mid-round: the secondary is due at once, with the primary's variables under its own.
      await f.leads.applyGroupChange(
        group!,
        {
          statuses: new Map([[a, 'rescheduled']]),
          attempts: new Map([[a, 1]]),
          roundsDone: 0,
          nextAttemptAt: null,
          finished: false,
        },
        later(3),
      );
      expect(await f.leads.dueContacts(c.id, 10)).toEqual([
        { id: secondary, phoneNumber: '+14155550011', variables: { name: 'A', who: '+14155550011' } },
        { id: b, phoneNumber: '+14155550002', variables: {} },
      ]);
      // The round ends: the whole group waits for its next round.
      await f.leads.applyGroupChange(
        (await f.leads.groupOf(a))!,
        {
          statuses: new Map([
            [a, 'rescheduled'],
            [secondary, 'rescheduled'],
          ]),
          attempts: new Map([[secondary, 1]]),
          roundsDone: 1,
          nextAttemptAt: later(60),
          finished: false,
        },
        later(4),
      );
      expect((await f.leads.findOwned(user, a))?.nextAttemptAt).toEqual(later(60));
      expect((await f.leads.groupOf(a))?.roundsDone).toBe(1);
      await f.leads.promoteDueRounds(c.id, later(59));
      expect((await f.leads.dueContacts(c.id, 10)).map((d) => d.id)).toEqual([b]);
      await f.leads.promoteDueRounds(c.id, later(60));
      expect((await f.leads.dueContacts(c.id, 10)).map((d) => d.id)).toEqual([b, a]);
      const stats = await f.campaigns.stats(c.id);
      expect(stats).toMatchObject({ secondaryContacts: 1, callsTotal: 0, nextAttemptAt: null });
      expect(stats.leadsByStatus).toMatchObject({ created: 1, scheduled: 1 });
    });

    it('a status set on a primary applies to its group; created resets attempts; pending follows the statuses', async () => {
      const c = await f.campaigns.create(user, settings, T0);
      const [a] = await f.leads.create(user, c.id, [lead('+14155550001', ['+14155550011'])], T0);
      expect(await f.leads.hasPending(c.id)).toBe(true);
      await f.leads.update(a, { status: 'completed', variables: { x: '1' } }, later(1));
      expect(await f.leads.findOwned(user, a)).toMatchObject({
        status: 'completed',
        variables: { x: '1' },
        secondaryContacts: [{ status: 'completed' }],
      });
      expect(await f.leads.hasPending(c.id)).toBe(false);
      await f.leads.update(a, { status: 'created' }, later(2));
      expect(await f.leads.hasPending(c.id)).toBe(true);
    });

    it('deletes a secondary alone, a primary with its group, and a campaign with its leads', async () => {
      const c = await f.campaigns.create(user, settings, T0);
      const [a, b] = await f.leads.create(
        user,
        c.id,
        [lead('+14155550001', ['+14155550011']), lead('+14155550002', ['+14155550021'])],
        T0,
      );
      const secondary = (await f.leads.findOwned(user, a))!.secondaryContacts[0].id;
      await f.leads.delete(secondary);
      expect((await f.leads.findOwned(user, a))?.secondaryContacts).toEqual([]);
      await f.leads.delete(b);
      expect(await f.leads.countInCampaign(c.id)).toBe(1);
      expect(await f.campaigns.delete(user, c.id)).toBe(true);
      expect(await f.leads.findById(a)).toBeNull();
      expect(await f.campaigns.findById(c.id)).toBeNull();
    });
  });
}
