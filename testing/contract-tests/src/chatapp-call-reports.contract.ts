import {
  CallChannel,
  CallStatus,
  ChatappCallCandidate,
  ChatappCallReport,
  ok,
  RuntimeConfig,
} from '@voiceplane/domain';
import { CallRepository, ChatappCallReportKey, ChatappCallReportRepository } from '@voiceplane/application';

export interface ChatappCallReportFixture {
  readonly reports: ChatappCallReportRepository;
  /** The calls the reports are bound to (the same store). */
  readonly calls: CallRepository;
  readonly userId: number;
}

const T0 = new Date('2030-05-01T10:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);
const PHONE = '+4915112345678';
const CONFIG = { variables: {}, direction: 'outbound' } as unknown as RuntimeConfig;

/** The ChatappCallReportRepository port's behaviour, run against every implementation. `open` gives an empty store per test. */
export function chatappCallReportsContract(name: string, open: () => Promise<ChatappCallReportFixture>): void {
  describe(`ChatappCallReportRepository contract: ${name}`, () => {
    let f: ChatappCallReportFixture;
    beforeEach(async () => {
      f = await open();
    });

    const call = async (o: {
      senderId?: number;
      phone?: string;
      channel?: CallChannel;
      created: number;
      status?: CallStatus;
      finished?: number;
    }): Promise<number> => {
      const { call: created } = await f.calls.create({
        userId: f.userId,
        assistantId: 1,
        direction: 'outbound',
        channel: o.channel ?? 'chatapp',
        status: 'queued',
        customerPhone: o.phone ?? PHONE,
        line: { phoneNumberId: null, phoneNumber: '+4930123456', sip: null },
        variables: {},
        runtimeConfig: CONFIG,
        senderId: o.senderId ?? 7,
        now: at(o.created),
      });
      if (o.status !== undefined) {
        await f.calls.update(created.id, async () =>
          ok({
            changes: { status: o.status, ...(o.finished === undefined ? {} : { finishedAt: at(o.finished) }) },
            at: at(o.created),
            answer: null,
          }),
        );
      }
      return created.id;
    };
    const key = (metaCallId: string, over: Partial<ChatappCallReportKey> = {}): ChatappCallReportKey => ({
      metaCallId,
      senderId: 7,
      customerPhone: PHONE,
      endedSince: at(100),
      ...over,
    });
    const report = (callId: number, metaCallId: string, over: Partial<ChatappCallReport> = {}): ChatappCallReport => ({
      callId,
      metaCallId,
      connectAt: at(120),
      terminateAt: null,
      duration: null,
      status: null,
      ...over,
    });
    /** Records what `decide` sees and stores `next`. */
    const seen = async (
      k: ChatappCallReportKey,
      next: (
        current: ChatappCallReport | null,
        candidates: readonly ChatappCallCandidate[],
      ) => ChatappCallReport | null,
    ) =>
      f.reports.record(k, (current, candidates) => ({
        next: next(current, candidates),
        answer: { current, candidates },
      }));

    it("offers the sender's unbound chat-app calls to the customer not ended before the window, newest first, and binds one", async () => {
      const older = await call({ created: 10, status: 'completed', finished: 110 });
      await call({ created: 5, status: 'completed', finished: 90 });
      const open = await call({ created: 115, status: 'ringing' });
      await call({ created: 116, senderId: 8 });
      await call({ created: 117, phone: '+4915100000000' });
      await call({ created: 118, channel: 'phone' });

      const first = await seen(key('wacid.A'), (_, candidates) => report(candidates[0].callId, 'wacid.A'));
      expect(first).toEqual({
        current: null,
        candidates: [
          { callId: open, status: 'ringing', createdAt: at(115), finishedAt: null },
          { callId: older, status: 'completed', createdAt: at(10), finishedAt: at(110) },
        ],
      });
      expect(await f.reports.findByCallId(open)).toEqual(report(open, 'wacid.A'));
      // Bound: the next event of the id finds its report, and the call is no candidate for another id.
      const again = await seen(key('wacid.A'), (current) => ({
        ...current!,
        terminateAt: at(180),
        duration: 60,
        status: 'completed',
      }));
      expect(again).toEqual({ current: report(open, 'wacid.A'), candidates: [] });
      expect(await f.reports.findByCallId(open)).toEqual(
        report(open, 'wacid.A', { terminateAt: at(180), duration: 60, status: 'completed' }),
      );
      expect((await seen(key('wacid.B'), () => null)).candidates.map((c) => c.callId)).toEqual([older]);
      expect(await f.reports.findByCallId(older)).toBeNull();
    });

    it('offers no candidates when the customer is not named, and stores nothing when told so', async () => {
      await call({ created: 115 });
      expect(await seen(key('wacid.A', { customerPhone: null }), () => null)).toEqual({
        current: null,
        candidates: [],
      });
      expect((await seen(key('wacid.A'), () => null)).current).toBeNull();
    });

    it('binds a call to one chat-app call id only', async () => {
      const id = await call({ created: 115 });
      await seen(key('wacid.A'), () => report(id, 'wacid.A'));
      await expect(
        f.reports.record(key('wacid.B'), () => ({ next: report(id, 'wacid.B'), answer: null })),
      ).rejects.toThrow();
      expect(await f.reports.findByCallId(id)).toEqual(report(id, 'wacid.A'));
    });

    it('judges concurrent first events of one id one after the other: one binds, the other finds the report', async () => {
      const id = await call({ created: 115 });
      const bindOrKeep = () =>
        f.reports.record(key('wacid.A'), (current, candidates) =>
          current === null
            ? { next: report(candidates[0].callId, 'wacid.A'), answer: 'bound' }
            : { next: null, answer: 'found' },
        );
      expect((await Promise.all([bindOrKeep(), bindOrKeep()])).sort()).toEqual(['bound', 'found']);
      expect(await f.reports.findByCallId(id)).toEqual(report(id, 'wacid.A'));
    });
  });
}
