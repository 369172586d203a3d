import { decideFreeformSend, decideTemplateSend, FreeformSendInput, TemplateSendInput } from './send-decision';
import { DEFAULT_CHATAPP_PRICES } from './pricing';

const now = new Date('2026-03-01T10:15:00.000Z');
const openWindow = { lastCustomerMessageAt: new Date('2026-03-01T10:00:00.000Z'), lastTemplateSentAt: null };
const expiredWindow = { lastCustomerMessageAt: new Date('2026-02-28T09:00:00.000Z'), lastTemplateSentAt: null };

const goodTemplateSend: TemplateSendInput = {
  sender: { id: 12, status: 'online' },
  template: {
    senderId: 12,
    status: 'approved',
    bodyText: 'Hi {{1}}, your order {{2}} has shipped.',
    variables: ['1', '2'],
  },
  recipientPhone: '+14155551234',
  variables: { 1: 'Ann', 2: 'A-1001' },
  allowanceRemaining: 0,
  balance: 10,
  prices: DEFAULT_CHATAPP_PRICES,
};

/** Everything after the tested check fails too, so only the contract's order explains the code. */
const failingFrom = {
  sender: { sender: null },
  template: { template: null },
  foreignTemplate: { template: { ...goodTemplateSend.template!, senderId: 13 } },
  phone: { recipientPhone: '4155551234' },
  offline: { sender: { id: 12, status: 'offline' as const } },
  notApproved: { template: { ...goodTemplateSend.template!, status: 'pending' as const } },
  variables: { variables: { 1: 'Ann' } },
  balance: { balance: 0.01 },
};

describe('template send check order', () => {
  const all = (...keys: (keyof typeof failingFrom)[]): TemplateSendInput =>
    Object.assign({}, goodTemplateSend, ...keys.map((k) => failingFrom[k]));

  it.each([
    [
      'sender_not_found',
      all('balance', 'variables', 'notApproved', 'offline', 'phone', 'template', 'sender'),
      { code: 'sender_not_found' },
    ],
    [
      'TEMPLATE_NOT_FOUND (missing)',
      all('balance', 'variables', 'offline', 'phone', 'template'),
      { code: 'template_not_found' },
    ],
    [
      "TEMPLATE_NOT_FOUND (another sender's)",
      all('balance', 'offline', 'phone', 'foreignTemplate'),
      { code: 'template_not_found' },
    ],
    ['invalid_phone', all('balance', 'variables', 'notApproved', 'offline', 'phone'), { code: 'invalid_phone' }],
    [
      'sender_offline',
      all('balance', 'variables', 'notApproved', 'offline'),
      { code: 'sender_offline', senderStatus: 'offline' },
    ],
    [
      'template_not_approved',
      all('balance', 'variables', 'notApproved'),
      { code: 'template_not_approved', templateStatus: 'pending' },
    ],
    ['template_variables_missing', all('balance', 'variables'), { code: 'template_variables_missing', missing: ['2'] }],
    ['insufficient_balance', all('balance'), { code: 'insufficient_balance', balance: 0.01, required: 0.05 }],
  ])('%s', (_name, input, error) => {
    expect(decideTemplateSend(input)).toEqual({ ok: false, error });
  });

  it('success: rendered body and a balance charge', () => {
    expect(decideTemplateSend(goodTemplateSend)).toEqual({
      ok: true,
      value: { body: 'Hi Ann, your order A-1001 has shipped.', charge: { source: 'balance', amount: 0.05 } },
    });
  });

  it('success with allowance left and no balance', () => {
    expect(decideTemplateSend({ ...goodTemplateSend, balance: 0, allowanceRemaining: 3 })).toMatchObject({
      ok: true,
      value: { charge: { source: 'allowance', amount: 0 } },
    });
  });
});

describe('freeform send check order', () => {
  const good: FreeformSendInput = {
    sender: { status: 'online' },
    recipientPhone: '+14155551234',
    window: openWindow,
    balance: 10,
    prices: DEFAULT_CHATAPP_PRICES,
  };

  it.each([
    ['sender_not_found', { sender: null, recipientPhone: 'x', window: null, balance: 0 }, 'sender_not_found'],
    [
      'invalid_phone',
      { sender: { status: 'offline' as const }, recipientPhone: '+0123', window: null, balance: 0 },
      'invalid_phone',
    ],
    ['sender_offline', { sender: { status: 'offline' as const }, window: null, balance: 0 }, 'sender_offline'],
    ['session_expired', { window: expiredWindow, balance: 0 }, 'session_expired'],
    ['insufficient_balance', { balance: 0.005 }, 'insufficient_balance'],
  ])('%s', (_name, overrides, code) => {
    const r = decideFreeformSend({ ...good, ...overrides }, now);
    expect(r.ok ? null : r.error.code).toBe(code);
  });

  it('SESSION_EXPIRED carries the expired session status', () => {
    expect(decideFreeformSend({ ...good, window: expiredWindow }, now)).toEqual({
      ok: false,
      error: {
        code: 'session_expired',
        sessionStatus: expect.objectContaining({ kind: 'expired', expiredAt: new Date('2026-03-01T09:00:00.000Z') }),
      },
    });
  });

  it('SESSION_EXPIRED without a conversation carries the no-conversation status', () => {
    expect(decideFreeformSend({ ...good, window: null }, now)).toEqual({
      ok: false,
      error: {
        code: 'session_expired',
        sessionStatus: expect.objectContaining({ kind: 'no_conversation', expiredAt: null }),
      },
    });
  });

  it('success: the open session status and the freeform price', () => {
    expect(decideFreeformSend(good, now)).toEqual({
      ok: true,
      value: {
        sessionStatus: expect.objectContaining({ isOpen: true, minutesRemaining: 1425 }),
        charge: { source: 'balance', amount: 0.01 },
      },
    });
  });
});
