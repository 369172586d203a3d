import { err, noCallPermission, ok, PERMISSION_REQUEST_QUOTAS } from '@voiceplane/domain';
import { voiceQuotaKey } from './voice-facts';
import { PHONE, START, voiceScene } from '../../test-support/voice-scene';

const HOUR = 3_600_000;
/** A request that went out answers the permission as read after it. */
const ASKED = ok(expect.objectContaining({ senderId: 12, customerPhone: PHONE }));
const DAY = 24 * HOUR;

async function ready(options: Parameters<ReturnType<typeof voiceScene>['scene']>[0] = {}) {
  const s = voiceScene();
  const scene = await s.scene({ permission: 'none', ...options });
  s.customerWrote(START);
  const ask = (over: { templateId?: number | null; phone?: string; userId?: number } = {}) =>
    s.requests.execute({
      userId: over.userId ?? scene.user.id,
      senderId: 12,
      recipientPhone: over.phone ?? PHONE,
      recipientName: 'Ann',
      templateId: over.templateId ?? null,
    });
  return { ...s, ...scene, ask };
}

describe('RequestCallPermission', () => {
  it('sends the most recently approved request template, and the permission turns pending with one ask counted', async () => {
    const s = await ready();
    s.template({ id: 40, updatedAt: START });
    s.template({ id: 41, updatedAt: new Date(START.getTime() + 1000) });
    s.template({ id: 42, category: 'utility', updatedAt: new Date(START.getTime() + 2000) });
    s.template({ id: 43, status: 'pending', updatedAt: new Date(START.getTime() + 3000) });

    expect(await s.ask()).toEqual(ASKED);

    expect(s.requestSender.sent).toEqual([{ templateId: 41, customerPhone: PHONE, recipientName: 'Ann' }]);
    expect(await s.permissions.find(12, PHONE)).toMatchObject({ status: 'pending', requestedAt: START, asks: [START] });
  });

  it('uses the template given, when it is an approved request template of the sender', async () => {
    const s = await ready();
    s.template({ id: 40 });
    s.template({ id: 41 });

    expect(await s.ask({ templateId: 40 })).toEqual(ASKED);
    expect(s.requestSender.sent.map((x) => x.templateId)).toEqual([40]);
  });

  it.each([
    [
      'SENDER_NOT_FOUND for another account',
      { code: 'sender_not_found' },
      async (s: Awaited<ReturnType<typeof ready>>) => s.ask({ userId: (await s.store.account()).id }),
    ],
    ['invalid_phone', { code: 'invalid_phone' }, (s: Awaited<ReturnType<typeof ready>>) => s.ask({ phone: '+0' })],
    [
      'TEMPLATE_NOT_FOUND for a template that is not a request template',
      { code: 'template_missing' },
      (s: Awaited<ReturnType<typeof ready>>) => s.ask({ templateId: 99 }),
    ],
  ])('refuses with %s, sending and changing nothing', async (_name, expected, act) => {
    const s = await ready();
    s.template({ id: 40 });

    expect(await act(s)).toEqual(err(expected));
    expect(s.requestSender.sent).toEqual([]);
    expect(s.permissions.isStored(12, PHONE)).toBe(false);
  });

  it('checks in the route order: voice, region, template, session, limits', async () => {
    const disabled = await ready({ sender: { callingEnabled: false, countryCode: 'US' } });
    expect(await disabled.ask()).toEqual(err({ code: 'voice_disabled' }));
    const region = await ready({ sender: { countryCode: 'TR' } });
    expect(await region.ask()).toEqual(err({ code: 'region_not_supported', country: 'TR' }));
    const template = await ready();
    expect(await template.ask()).toEqual(err({ code: 'template_missing' }));
    const closed = await ready();
    closed.template();
    closed.customerWrote(new Date(START.getTime() - DAY));
    expect(await closed.ask()).toEqual(err({ code: 'session_closed' }));
    expect(closed.permissions.isStored(12, PHONE)).toBe(false);
  });

  it('allows 1 ask per 24 hours and 2 per 7 days, with when to retry', async () => {
    const s = await ready();
    s.template();
    expect(await s.ask()).toEqual(ASKED);

    s.store.clock.advance(HOUR);
    s.customerWrote(s.store.clock.now());
    expect(await s.ask()).toEqual(
      err(
        expect.objectContaining({
          code: 'request_limit',
          reason: 'daily_limit',
          retryAt: new Date(START.getTime() + DAY),
        }),
      ),
    );
    s.store.clock.advance(DAY);
    s.customerWrote(s.store.clock.now());
    expect(await s.ask()).toEqual(ASKED);
    s.store.clock.advance(DAY + HOUR);
    s.customerWrote(s.store.clock.now());
    expect(await s.ask()).toEqual(
      err(
        expect.objectContaining({
          code: 'request_limit',
          reason: 'weekly_limit',
          retryAt: new Date(START.getTime() + 7 * DAY),
        }),
      ),
    );
    expect(s.requestSender.sent).toHaveLength(2);
  });

  it('refuses a contact that already granted permission', async () => {
    const s = await ready({ permission: 'granted' });
    s.template();

    expect(await s.ask()).toEqual(err(expect.objectContaining({ code: 'request_limit', reason: 'already_granted' })));
  });

  it('answers SEND_FAILED for an offline sender and for a provider refusal, counting nothing', async () => {
    const offline = await ready({ sender: { status: 'offline' } });
    offline.template();
    expect(await offline.ask()).toEqual(err({ code: 'send_failed', reason: 'the sender is not online' }));

    const refused = await ready();
    refused.template();
    refused.requestSender.refuseNext('template paused');
    expect(await refused.ask()).toEqual(err({ code: 'send_failed', reason: 'template paused' }));
    // The ask recorded before the send is withdrawn: the contact reads as never asked.
    expect(await refused.permissions.find(12, PHONE)).toEqual(noCallPermission(12, PHONE));
    expect(await refused.ask()).toEqual(ASKED);
  });
});

describe('ReadCallPermission', () => {
  it('reads a granted contact: can call, cannot request (already granted), with the limits in use', async () => {
    const s = await ready({ permission: 'granted' });
    s.template();

    const view = await s.reads.read(s.user.id, 12, PHONE);

    expect(view).toEqual(
      ok(expect.objectContaining({ senderId: 12, customerPhone: PHONE, conversationUuid: 'conv-uuid' })),
    );
    const readout = view.ok ? view.value.readout : null;
    expect(readout).toMatchObject({
      status: 'granted',
      isPermanent: true,
      canCall: true,
      canRequest: false,
      sessionOpen: true,
    });
    expect(readout?.actions[0]).toMatchObject({
      actionName: 'send_call_permission_request',
      canPerform: false,
      reason: 'already_granted',
    });
    expect(readout?.actions[1]).toMatchObject({
      actionName: 'start_call',
      canPerform: true,
      reason: null,
      nextAllowedAt: null,
    });
  });

  it("names the first reason a call would fail, and refuses another account's sender and a malformed phone", async () => {
    const s = await ready({ permission: 'none' });

    const view = await s.reads.read(s.user.id, 12, PHONE);

    expect(view.ok && view.value.readout.actions[1]).toMatchObject({ canPerform: false, reason: 'no_permission' });
    expect(view.ok && view.value.readout.actions[0]).toMatchObject({ canPerform: false, reason: 'template_missing' });
    expect(await s.reads.read((await s.store.account()).id, 12, PHONE)).toEqual(err({ code: 'sender_not_found' }));
    expect(await s.reads.read(s.user.id, 12, '004915112345678')).toEqual(err({ code: 'invalid_phone' }));
  });

  it("reports quota_exhausted once the user's request quota is used up, with when it frees", async () => {
    const s = await ready({ permission: 'none' });
    s.template();
    const buckets = PERMISSION_REQUEST_QUOTAS.map((q) => ({
      key: voiceQuotaKey('request', s.user.id),
      limit: q.limit,
      windowSeconds: q.windowSeconds,
    }));
    const before = await s.reads.read(s.user.id, 12, PHONE);
    for (let i = 0; i < 5; i++) await s.rateLimiter.consume(buckets);

    const after = await s.reads.read(s.user.id, 12, PHONE);

    expect(before.ok && before.value.readout.actions[0]).toMatchObject({ canPerform: true, reason: null });
    expect(after.ok && after.value.readout.actions[0]).toMatchObject({
      canPerform: false,
      reason: 'quota_exhausted',
      nextAllowedAt: new Date(START.getTime() + 60_000),
    });
  });
});
