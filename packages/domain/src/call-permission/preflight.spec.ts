import { acceptCallPermission, noCallPermission } from './call-permission';
import { recordPermissionRequest } from './permission-asks';
import { readCallPermission, START_CALL_REASON_ORDER, VoicePreflightFacts } from './preflight';
import { CHATAPP_CALL_QUOTAS, PERMISSION_REQUEST_QUOTAS } from './user-quotas';

const d = (iso: string) => new Date(iso);
const MIN = 60 * 1000;
const fresh = noCallPermission(12, '+14155551234');
const asked = (() => {
  const r = recordPermissionRequest(fresh, d('2026-03-01T10:20:00.000Z'));
  if (!r.ok) throw new Error('setup');
  return r.value.next;
})();
/** The preflight example: asked 10:20, granted (temporary) 10:30. */
const granted = acceptCallPermission(asked, false, d('2026-03-01T10:30:00.000Z')).next;
const now = d('2026-03-01T11:00:00.000Z');

const facts: VoicePreflightFacts = {
  planCallingEnabled: true,
  senderCallingEnabled: true,
  senderCallingLineReady: true,
  senderOnline: true,
  senderCountry: 'DE',
  assistant: 'available',
  hasRequestTemplate: true,
  lastCustomerMessageAt: d('2026-03-01T10:10:00.000Z'),
  permission: granted,
  balance: 10,
  minutePrice: 0.08,
  senderCallStatuses: [],
  contactAttempts: [],
  requestQuota: PERMISSION_REQUEST_QUOTAS.map((quota) => ({ quota, used: 0 })),
  callQuota: CHATAPP_CALL_QUOTAS.map((quota) => ({ quota, used: 0 })),
};

describe('permission readout and preflight', () => {
  it('reproduces the preflight example', () => {
    expect(readCallPermission(facts, now)).toEqual({
      status: 'granted',
      isPermanent: false,
      canCall: true,
      canRequest: false,
      sessionOpen: true,
      expiresAt: d('2026-03-08T10:30:00.000Z'),
      requestedAt: d('2026-03-01T10:20:00.000Z'),
      respondedAt: d('2026-03-01T10:30:00.000Z'),
      actions: [
        {
          actionName: 'send_call_permission_request',
          canPerform: false,
          reason: 'already_granted',
          nextAllowedAt: d('2026-03-08T10:30:00.000Z'),
          limits: [
            { timePeriod: 'PT24H', maxAllowed: 1, currentUsage: 1, limitExpirationTime: d('2026-03-02T10:20:00.000Z') },
            { timePeriod: 'P7D', maxAllowed: 2, currentUsage: 1, limitExpirationTime: d('2026-03-08T10:20:00.000Z') },
          ],
        },
        {
          actionName: 'start_call',
          canPerform: true,
          reason: null,
          nextAllowedAt: null,
          limits: [{ timePeriod: 'PT5M', maxAllowed: 3, currentUsage: 0, limitExpirationTime: null }],
        },
      ],
    });
  });

  it('a contact never asked, with the customer writing: may be asked, may not be called', () => {
    const r = readCallPermission({ ...facts, permission: fresh }, now);
    expect(r).toMatchObject({
      status: 'none',
      canCall: false,
      canRequest: true,
      expiresAt: null,
      requestedAt: null,
      respondedAt: null,
    });
    expect(r.actions[0]).toMatchObject({ canPerform: true, reason: null, nextAllowedAt: null });
    expect(r.actions[1]).toMatchObject({ canPerform: false, reason: 'no_permission', nextAllowedAt: null });
  });

  it("session_open counts only the customer's messages, for 24 hours", () => {
    expect(
      readCallPermission({ ...facts, lastCustomerMessageAt: d('2026-02-28T11:00:00.000Z') }, now).sessionOpen,
    ).toBe(false);
    expect(
      readCallPermission({ ...facts, lastCustomerMessageAt: d('2026-02-28T11:00:00.001Z') }, now).sessionOpen,
    ).toBe(true);
  });

  it('an expired grant reads expired, keeps its end and blocks calls as permission_expired', () => {
    const later = d('2026-03-08T10:30:00.000Z');
    const r = readCallPermission({ ...facts, lastCustomerMessageAt: d('2026-03-08T09:00:00.000Z') }, later);
    expect(r).toMatchObject({ status: 'expired', canCall: false, canRequest: true, expiresAt: later });
    expect(r.actions[1]).toMatchObject({ canPerform: false, reason: 'permission_expired' });
  });

  describe('send_call_permission_request reasons, in preflight order, quota last', () => {
    const pending = { ...facts, permission: asked };
    it.each([
      ['voice_disabled', { senderCallingEnabled: false, senderCountry: 'US', hasRequestTemplate: false }, null],
      ['region_not_supported', { senderCountry: 'EG', hasRequestTemplate: false }, null],
      ['template_missing', { hasRequestTemplate: false, lastCustomerMessageAt: null }, null],
      ['session_closed', { lastCustomerMessageAt: null }, null],
      ['daily_limit', {}, d('2026-03-02T10:20:00.000Z')],
      [
        'quota_exhausted',
        { permission: fresh, requestQuota: [{ quota: PERMISSION_REQUEST_QUOTAS[0], used: 5 }] },
        d('2026-03-01T11:01:00.000Z'),
      ],
    ] as const)('%s', (reason, change, nextAllowedAt) => {
      const r = readCallPermission({ ...pending, ...change }, now);
      expect(r.actions[0]).toMatchObject({
        actionName: 'send_call_permission_request',
        canPerform: false,
        reason,
        nextAllowedAt,
      });
      expect(r.canRequest).toBe(false);
    });

    it('weekly_limit, freeing a week after the first counted ask', () => {
      const second = recordPermissionRequest({ ...asked, status: 'rejected' }, d('2026-03-02T10:20:00.000Z'));
      if (!second.ok) throw new Error('setup');
      const r = readCallPermission(
        {
          ...facts,
          permission: { ...second.value.next, status: 'rejected' },
          lastCustomerMessageAt: d('2026-03-03T10:00:00.000Z'),
        },
        d('2026-03-03T11:00:00.000Z'),
      );
      expect(r.actions[0]).toMatchObject({
        reason: 'weekly_limit',
        nextAllowedAt: d('2026-03-08T10:20:00.000Z'),
        limits: [
          expect.objectContaining({ currentUsage: 0 }),
          expect.objectContaining({ currentUsage: 2, limitExpirationTime: d('2026-03-08T10:20:00.000Z') }),
        ],
      });
    });
  });

  describe('start_call reasons, in preflight order with the added reasons', () => {
    it("lists them in the contract order, the chat app's own calling switch right after the sender's", () => {
      expect(START_CALL_REASON_ORDER).toEqual([
        'feature_disabled',
        'voice_disabled',
        'calling_not_enabled',
        'sender_offline',
        'region_not_supported',
        'no_assistant',
        'assistant_blocked',
        'no_permission',
        'permission_expired',
        'concurrent_limit',
        'contact_rate_limit',
        'insufficient_balance',
      ]);
    });

    const attempts = [d('2026-03-01T10:57:00.000Z'), d('2026-03-01T10:58:00.000Z'), d('2026-03-01T10:59:00.000Z')];
    it.each([
      ['feature_disabled', { planCallingEnabled: false, senderCallingEnabled: false }, null],
      ['voice_disabled', { senderCallingEnabled: false, senderOnline: false }, null],
      ['calling_not_enabled', { senderCallingLineReady: false, senderOnline: false }, null],
      ['sender_offline', { senderOnline: false, senderCountry: 'US' }, null],
      ['region_not_supported', { senderCountry: 'US', assistant: 'none' }, null],
      ['no_assistant', { assistant: 'none', permission: fresh }, null],
      ['assistant_blocked', { assistant: 'compliance_blocked', permission: fresh }, null],
      [
        'no_permission',
        { permission: fresh, senderCallStatuses: ['queued', 'queued', 'queued', 'queued', 'queued'] },
        null,
      ],
      [
        'concurrent_limit',
        { senderCallStatuses: ['queued', 'queued', 'queued', 'queued', 'queued'], contactAttempts: attempts },
        null,
      ],
      // The preflight reports the contact rate before the balance, although the route checks the balance first.
      ['contact_rate_limit', { contactAttempts: attempts, balance: 0 }, d('2026-03-01T11:02:00.000Z')],
      ['insufficient_balance', { balance: 0, callQuota: [{ quota: CHATAPP_CALL_QUOTAS[2], used: 30 }] }, null],
      ['quota_exhausted', { callQuota: [{ quota: CHATAPP_CALL_QUOTAS[2], used: 30 }] }, d('2026-03-02T00:00:00.000Z')],
    ] as const)('%s', (reason, change, nextAllowedAt) => {
      const r = readCallPermission({ ...facts, ...change } as VoicePreflightFacts, now);
      expect(r.actions[1]).toMatchObject({ actionName: 'start_call', canPerform: false, reason, nextAllowedAt });
    });

    it('shows the contact attempts against their 5-minute limit; one exactly 5 minutes old no longer counts', () => {
      const r = readCallPermission(
        {
          ...facts,
          contactAttempts: [
            d('2026-03-01T10:57:00.000Z'),
            d('2026-03-01T10:55:00.000Z'),
            d('2026-03-01T10:56:00.000Z'),
          ],
        },
        now,
      );
      expect(r.actions[1].limits).toEqual([
        {
          timePeriod: 'PT5M',
          maxAllowed: 3,
          currentUsage: 2,
          limitExpirationTime: new Date(d('2026-03-01T10:56:00.000Z').getTime() + 5 * MIN),
        },
      ]);
    });
  });
});
