import { builtInTool } from './built-in-tools';
import { fillerConfig } from './filler-config';
import { canonicalTimeZone } from './timezone';

describe('built-in tool shapes', () => {
  it.each([
    [
      { type: 'end_call', data: {} },
      { type: 'end_call', data: { description: null } },
    ],
    [
      { type: 'end_call', data: { description: 'When the customer says bye' } },
      { type: 'end_call', data: { description: 'When the customer says bye' } },
    ],
    [
      { type: 'call_transfer', data: { phone_number: '+14155550100' } },
      {
        type: 'call_transfer',
        data: { phone_number: '+14155550100', description: null, warm_transfer: false, warm_transfer_message: null },
      },
    ],
    [
      { type: 'dtmf_input', data: {} },
      { type: 'dtmf_input', data: { description: null } },
    ],
    [
      { type: 'collect_keypad', data: { stop_key: '*' } },
      { type: 'collect_keypad', data: { description: null, timeout: 5, stop_key: '*' } },
    ],
    [
      { type: 'calendar_integration', data: { event_type_id: 2 } },
      { type: 'calendar_integration', data: { event_type_id: 2, description: null } },
    ],
    [
      { type: 'assistant_transfer', data: { assistant_id: 9, speak_transfer_greeting: false } },
      {
        type: 'assistant_transfer',
        data: { assistant_id: 9, description: null, message_before_transfer: null, speak_transfer_greeting: false },
      },
    ],
  ] as const)('%j → %j', (input, output) => {
    expect(builtInTool(input)).toEqual(output);
  });
});

describe('filler_config', () => {
  it('fills the categories the client left out', () => {
    expect(fillerConfig({ positive: ['Great!'] })).toEqual({
      positive: ['Great!'],
      negative: [],
      question: [],
      neutral: [],
    });
  });
});

describe('timezone', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['america/new_york', 'America/New_York'],
    ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['Mars/Olympus', null],
    ['+02:00', null],
    ['', null],
    ['Europe/Berlin; DROP', null],
  ])('%s → %s', (input, output) => {
    expect(canonicalTimeZone(input)).toBe(output);
  });
});
