import { toolVariables, ToolCallSubject, variableText, zonedNow } from './variables';

const call: ToolCallSubject = {
  callId: 4812,
  assistantId: 101,
  customerPhone: '+14155551234',
  assistantPhone: '+14155550000',
  direction: 'outbound',
  channel: 'phone',
  conversationId: null,
  timezone: 'Europe/Berlin',
  variables: { customer_name: 'Ann', plan: 'gold', call_id: 'spoofed' },
  assistantVariables: { plan: 'basic', company: 'Acme', count: 3 },
};

const now = new Date('2026-03-01T23:45:30.250Z');

describe('toolVariables', () => {
  it('layers assistant, call input and system variables, highest last', () => {
    expect(Object.fromEntries(toolVariables(call, now))).toEqual({
      plan: 'gold',
      company: 'Acme',
      count: '3',
      customer_name: 'Ann',
      call_id: '4812',
      assistant_id: '101',
      customer_phone: '+14155551234',
      assistant_phone: '+14155550000',
      direction: 'outbound',
      channel: 'phone',
      conversation_id: '',
      current_date: '2026-03-02',
      current_time: '00:45',
      current_datetime: '2026-03-02T00:45:30+01:00',
      timezone: 'Europe/Berlin',
    });
  });

  it('lets overrides win over everything', () => {
    const vars = toolVariables(call, now, { call_id: 9, plan: null, extra: { a: 1 } });
    expect([vars.get('call_id'), vars.get('plan'), vars.get('extra')]).toEqual(['9', '', '{"a":1}']);
  });

  it('has only the overrides without a call', () => {
    expect(Object.fromEntries(toolVariables(null, now, { a: 'b' }))).toEqual({ a: 'b' });
  });
});

describe('zonedNow', () => {
  it.each([
    ['UTC', '2026-03-01', '23:45', '2026-03-01T23:45:30+00:00', 'UTC'],
    ['America/Los_Angeles', '2026-03-01', '15:45', '2026-03-01T15:45:30-08:00', 'America/Los_Angeles'],
    ['Asia/Kolkata', '2026-03-02', '05:15', '2026-03-02T05:15:30+05:30', 'Asia/Kolkata'],
    ['Not/AZone', '2026-03-01', '23:45', '2026-03-01T23:45:30+00:00', 'UTC'],
  ])('%s', (zone, date, time, datetime, timezone) => {
    expect(zonedNow(now, zone)).toEqual({ date, time, datetime, timezone });
  });

  it('follows daylight saving time', () => {
    expect(zonedNow(new Date('2026-07-01T12:00:00Z'), 'Europe/Berlin').datetime).toBe('2026-07-01T14:00:00+02:00');
  });
});

it.each([
  ['x', 'x'],
  [1.5, '1.5'],
  [true, 'true'],
  [null, ''],
  [[1, 'a'], '[1,"a"]'],
])('variableText(%p) = %p', (value, text) => {
  expect(variableText(value)).toBe(text);
});
