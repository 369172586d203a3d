import { findTemplate, SampleSources, TemplateKey, TemplateParams } from '../catalogue';
import { deepMerge } from '../json';
import { eventSample } from './trigger-events';

const standardCallSample = (assistantId: number) => eventSample('call.ended', assistantId);

const sampleInput = (key: TemplateKey, params: TemplateParams, sources: SampleSources) =>
  findTemplate(key)!.sampleInput(params, sources);

const sources = { assistantId: 101, firstKeyValue: null };
const phone = '+14155551234';

describe('sample test inputs', () => {
  it('the standard call sample carries the bound assistant', () => {
    const s = standardCallSample(101);
    expect(s).toMatchObject({
      event: 'call.ended',
      assistant_id: 101,
      call: { assistant_id: 101, status: 'completed', customer_phone: '+15555550100', duration: 42 },
    });
  });

  it('lead intake: the test phone at phone_field', () => {
    expect(sampleInput('lead_intake_call', { test_phone_number: phone }, sources)).toEqual({
      name: 'Test Lead',
      phone,
      email: 'lead@example.com',
      interest: 'demo',
    });
    expect(
      sampleInput('lead_intake_call', { test_phone_number: phone, phone_field: 'contact.mobile' }, sources),
    ).toEqual({
      name: 'Test Lead',
      email: 'lead@example.com',
      interest: 'demo',
      contact: { mobile: phone },
    });
  });

  it('chat-app follow-up: the call comes from the test phone', () => {
    const s = sampleInput('post_call_chatapp_followup', { test_phone_number: phone }, sources);
    expect(s).toEqual(deepMerge(standardCallSample(101), { call: { customer_phone: phone } }));
  });

  it('delayed follow-up: an unanswered call from the test phone', () => {
    expect(
      sampleInput('delayed_followup_call', { test_phone_number: phone, delay_minutes: 60 }, sources),
    ).toMatchObject({ call: { status: 'no-answer', duration: 0, customer_phone: phone, id: 0 } });
  });

  it.each(['post_call_webhook_forward', 'crm_note_on_call'] as const)('%s: the standard call sample', (key) => {
    expect(sampleInput(key, {}, sources)).toEqual(standardCallSample(101));
  });

  it('conversation forward: the standard conversation sample', () => {
    expect(sampleInput('conversation_webhook_forward', {}, sources)).toEqual(eventSample('conversation.ended', 101));
    expect(sampleInput('conversation_webhook_forward', {}, sources)).toMatchObject({
      event: 'conversation.ended',
      conversation: { assistant_id: 101, status: 'ended' },
    });
  });

  it('an event sample with changes merged into what the event carries', () => {
    expect(eventSample('call.ended', 5, { call: { status: 'busy' } })).toEqual(
      deepMerge(standardCallSample(5), { call: { status: 'busy' } }),
    );
    expect(eventSample('call.ended', 5, { call: { status: 'busy' } })).toMatchObject({
      call: { status: 'busy', duration: 42, assistant_id: 5 },
    });
  });

  it('lookup: the first row key at input_field, "" for an empty table', () => {
    expect(
      sampleInput(
        'midcall_lookup_table',
        { table_id: 7, key_column: 'order_number' },
        { assistantId: null, firstKeyValue: 'A-1001' },
      ),
    ).toEqual({ key: 'A-1001' });
    expect(
      sampleInput(
        'midcall_lookup_table',
        { table_id: 7, key_column: 'order_number', input_field: 'order' },
        { assistantId: null, firstKeyValue: null },
      ),
    ).toEqual({ order: '' });
  });
});

describe('deep merge of the sample option', () => {
  it('merges objects key by key and replaces everything else', () => {
    expect(deepMerge({ a: { b: 1, c: 2 }, d: [1, 2], e: 'x' }, { a: { c: 3 }, d: [9], f: null })).toEqual({
      a: { b: 1, c: 3 },
      d: [9],
      e: 'x',
      f: null,
    });
  });

  it('a __proto__ key stays data', () => {
    const merged = deepMerge({}, JSON.parse('{"__proto__":{"polluted":true}}'));
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(merged)).toEqual(['__proto__']);
  });
});
