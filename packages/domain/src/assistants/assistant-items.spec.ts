import { builtInTool } from './built-in-tools';
import { fillerConfig } from './filler-config';
import { normalizeVariables } from './variables';
import { canonicalTimeZone } from './timezone';

describe('built-in tool shapes (CONTRACT §3.3)', () => {
  it.each([
    [{ type: 'end_call', data: {} }, { type: 'end_call', data: { description: null } }],
    [{ type: 'end_call', data: { description: 'When the customer says bye' } }, { type: 'end_call', data: { description: 'When the customer says bye' } }],
    [{ type: 'call_transfer', data: { phone_number: '+14155550100' } }, { type: 'call_transfer', data: { phone_number: '+14155550100', description: null, warm_transfer: false, warm_transfer_message: null } }],
    [{ type: 'dtmf_input', data: {} }, { type: 'dtmf_input', data: { description: null } }],
    [{ type: 'collect_keypad', data: { stop_key: '*' } }, { type: 'collect_keypad', data: { description: null, timeout: 5, stop_key: '*' } }],
    [{ type: 'calendar_integration', data: { event_type_id: 2 } }, { type: 'calendar_integration', data: { event_type_id: 2, description: null } }],
    [{ type: 'assistant_transfer', data: { assistant_id: 9, speak_transfer_greeting: false } }, { type: 'assistant_transfer', data: { assistant_id: 9, description: null, message_before_transfer: null, speak_transfer_greeting: false } }],
  ] as const)('%j → %j', (input, output) => {
    expect(builtInTool(input)).toEqual(output);
  });
});

describe('variables', () => {
  it.each([
    [{}, {}],
    [{ company: 'Acme', _n: 3, vip: true, ratio: 0.5 }, { company: 'Acme', _n: '3', vip: 'true', ratio: '0.5' }],
    [{ padded: '  x  ' }, { padded: 'x' }],
    [{ ['a'.repeat(64)]: '' }, { ['a'.repeat(64)]: '' }],
  ])('%j is stored as %j', (input, output) => {
    expect(normalizeVariables(input)).toEqual({ ok: true, value: output });
  });

  it.each([
    [{ '1st': 'x' }, { 'variables.1st': ['The variables.1st format is invalid.'] }],
    [{ 'with-dash': 'x' }, { 'variables.with-dash': ['The variables.with-dash format is invalid.'] }],
    [{ ['a'.repeat(65)]: 'x' }, { [`variables.${'a'.repeat(65)}`]: [`The variables.${'a'.repeat(65)} format is invalid.`] }],
    [{ nested: { a: 1 } }, { 'variables.nested': ['The variables.nested must be a string.'] }],
    [{ list: [1] }, { 'variables.list': ['The variables.list must be a string.'] }],
    [{ empty: null }, { 'variables.empty': ['The variables.empty must be a string.'] }],
    [{ long: 'x'.repeat(1001) }, { 'variables.long': ['The variables.long may not be greater than 1000 characters.'] }],
    [Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`v${i}`, 'x'])), { variables: ['The variables may not have more than 50 items.'] }],
  ])('refuses %j', (input, errors) => {
    expect(normalizeVariables(input)).toEqual({ ok: false, error: errors });
  });

  it('accepts exactly 50 keys of 1000 characters', () => {
    const input = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`v${i}`, 'x'.repeat(1000)]));
    expect(normalizeVariables(input)).toEqual({ ok: true, value: input });
  });
});

describe('filler_config', () => {
  it('fills the categories the client left out', () => {
    expect(fillerConfig({ positive: ['Great!'] })).toEqual({ positive: ['Great!'], negative: [], question: [], neutral: [] });
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
