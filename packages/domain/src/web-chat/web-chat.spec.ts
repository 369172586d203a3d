import {
  canStartChat,
  capPeriodStart,
  chatHistory,
  checkWidgetRequest,
  functionCallsOf,
  mergeVariables,
  messagePrice,
  normalizeOrigin,
  planUserMessage,
  refundPosting,
  withinDailyCap,
  WidgetSettings,
} from '..';
import type { ConversationMessage } from '..';

const message = (fields: Partial<ConversationMessage>): ConversationMessage => ({
  id: 1,
  conversationId: 1,
  direction: 'inbound',
  source: 'customer',
  type: 'text',
  body: 'Hi',
  mediaUrl: null,
  mediaType: null,
  filename: null,
  templateId: null,
  chatappMessageId: null,
  messageSid: null,
  status: null,
  errorCode: null,
  createdAt: new Date(0),
  ...fields,
});

describe('web chat rules', () => {
  it.each([
    ['widget', 0.01],
    ['external', 0.01],
    ['test', 0],
  ] as const)('a %s message costs %s', (type, price) => expect(messagePrice(type, 0.01)).toBe(price));

  it('plans a user message: answered and charged while AI is on, stored free after a takeover, refused without balance', () => {
    expect(planUserMessage({ type: 'widget', aiEnabled: true }, 0.01, 0.01)).toEqual({
      ok: true,
      value: { reply: true, charge: 0.01 },
    });
    expect(planUserMessage({ type: 'widget', aiEnabled: true }, 0.0099, 0.01)).toEqual({
      ok: false,
      error: { code: 'insufficient_balance' },
    });
    expect(planUserMessage({ type: 'test', aiEnabled: true }, 0, 0.01)).toEqual({
      ok: true,
      value: { reply: true, charge: 0 },
    });
    expect(planUserMessage({ type: 'widget', aiEnabled: false }, 0, 0.01)).toEqual({
      ok: true,
      value: { reply: false, charge: 0 },
    });
    expect(planUserMessage({ type: 'chatapp', aiEnabled: true }, 5, 0.01)).toEqual({
      ok: false,
      error: { code: 'conversation_not_found' },
    });
  });

  it('starts a billed chat only when its first message could be paid', () => {
    expect(canStartChat('widget', 0, 0.01)).toBe(false);
    expect(canStartChat('widget', 0.01, 0.01)).toBe(true);
    expect(canStartChat('test', 0, 0.01)).toBe(true);
  });

  it("merges variables, the request's winning", () => {
    expect(mergeVariables({ a: '1', b: '2' }, { b: '3', c: '4' })).toEqual({ a: '1', b: '3', c: '4' });
    expect(mergeVariables(null, undefined)).toEqual({});
  });

  it('reports the functions that ran with JSON results read back, made-up ones left out', () => {
    expect(
      functionCallsOf([
        { name: 'check', kind: 'tool', arguments: { d: 1 }, content: '{"ok":true}' },
        { name: 'end_call', kind: 'builtin', arguments: undefined, content: 'not json' },
        { name: 'nope', kind: 'unknown', arguments: undefined, content: '{}' },
      ]),
    ).toEqual([
      { name: 'check', arguments: { d: 1 }, result: { ok: true } },
      { name: 'end_call', arguments: {}, result: 'not json' },
    ]);
  });

  it('shows history as user and assistant lines, function calls only where a reply made some', () => {
    expect(
      chatHistory([
        message({ source: 'ai', body: 'Hello' }),
        message({ source: 'customer', body: 'Hi' }),
        message({ source: 'system', body: 'note' }),
        message({ source: 'ai', body: 'Done', functionCalls: [{ name: 'f', arguments: {}, result: 1 }] }),
        message({ source: 'api', body: 'Ann here' }),
      ]),
    ).toEqual([
      { role: 'assistant', content: 'Hello' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Done', function_calls: [{ name: 'f', arguments: {}, result: 1 }] },
      { role: 'assistant', content: 'Ann here' },
    ]);
  });

  it('gives a charge back as a positive adjustment', () => {
    expect(refundPosting(1.2, 0.01)).toEqual({ type: 'adjustment', amount: 0.01, balanceAfter: 1.21 });
  });
});

describe('widget rules', () => {
  const widget: WidgetSettings = {
    assistantId: 1,
    userId: 1,
    widgetKey: 'wgt_x',
    enabled: true,
    allowedOrigins: ['https://shop.example.com', 'http://127.0.0.1:8123'],
    dailyCap: 1,
  };

  it.each([
    ['https://Shop.Example.com', 'https://shop.example.com'],
    ['https://shop.example.com:443/', 'https://shop.example.com'],
    ['http://127.0.0.1:8123', 'http://127.0.0.1:8123'],
    ['http://a.example:80', 'http://a.example'],
    ['https://a.example:8443', 'https://a.example:8443'],
    ['javascript:alert(1)', null],
    ['https://a.example/path', null],
    ['null', null],
    ['ftp://a.example', null],
    ['https://user@a.example', null],
  ])('normalizes the origin %s to %s', (text, origin) => expect(normalizeOrigin(text)).toBe(origin));

  it('lets only an enabled widget on an allowed origin through', () => {
    expect(checkWidgetRequest(widget, 'https://SHOP.example.com')).toBeNull();
    expect(checkWidgetRequest(widget, 'http://127.0.0.1:8124')).toBe('origin_not_allowed');
    expect(checkWidgetRequest(widget, undefined)).toBe('origin_not_allowed');
    expect(checkWidgetRequest({ ...widget, enabled: false }, 'https://shop.example.com')).toBe('widget_not_found');
    expect(checkWidgetRequest(null, 'https://shop.example.com')).toBe('widget_not_found');
  });

  it("keeps spending within the day's cap", () => {
    expect(withinDailyCap(0.99, 0.01, 1)).toBe(true);
    expect(withinDailyCap(1, 0.01, 1)).toBe(false);
    expect(withinDailyCap(0, 0.01, 0)).toBe(false);
    expect(capPeriodStart(new Date('2026-12-07T23:59:59.999Z'))).toEqual(new Date('2026-12-07T00:00:00.000Z'));
  });
});
