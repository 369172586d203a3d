import { findTemplate } from './catalogue';
import { checkTemplateParams } from './template-params';

const context = {
  checkUrl: (url: string) => (url.startsWith('https://') ? null : 'The target url must be a public http or https URL.'),
};
const template = (key: string) => findTemplate(key)!;

describe('checkTemplateParams', () => {
  it('coerces ids, booleans, numbers and the variables map, dropping unknown keys', () => {
    const r = checkTemplateParams(
      template('post_call_chatapp_followup'),
      { sender_id: ' 12 ', template_id: 34, variables_map: '{"1":"x"}', test_phone_number: '+14155551234', extra: 1 },
      context,
    );
    expect(r).toEqual({
      params: { sender_id: 12, template_id: 34, variables_map: { 1: 'x' }, test_phone_number: '+14155551234' },
      missing: [],
      invalid: [],
    });
    const forward = checkTemplateParams(
      template('post_call_webhook_forward'),
      { url: 'https://x.example', include_transcript: 'false' },
      context,
    );
    expect(forward.params).toEqual({ url: 'https://x.example', include_transcript: false });
    expect(
      checkTemplateParams(
        template('delayed_followup_call'),
        { delay_minutes: '60', test_phone_number: '+14155551234' },
        context,
      ).params.delay_minutes,
    ).toBe(60);
  });

  it('reports absent required params (null and "" count as absent) before anything else', () => {
    const r = checkTemplateParams(
      template('post_call_chatapp_followup'),
      { sender_id: null, template_id: '', test_phone_number: 'bad' },
      context,
    );
    expect(r.missing.map((s) => s.key)).toEqual(['sender_id', 'template_id']);
    expect(r.invalid.map((i) => [i.spec.key, i.problem])).toEqual([['test_phone_number', { code: 'not_phone' }]]);
  });

  it('refuses values of the wrong format or range', () => {
    const r = checkTemplateParams(
      template('lead_intake_call'),
      {
        test_phone_number: '+14155551234',
        phone_field: 'a b',
        variable_fields: Array.from({ length: 21 }, (_, i) => `f${i}`).join(','),
      },
      context,
    );
    expect(r.invalid.map((i) => [i.spec.key, i.problem])).toEqual([
      ['phone_field', { code: 'format_invalid' }],
      ['variable_fields', { code: 'too_many_names', max: 20 }],
    ]);
    const delay = checkTemplateParams(
      template('delayed_followup_call'),
      { delay_minutes: 10_081, test_phone_number: '+14155551234' },
      context,
    );
    expect(delay.invalid[0].problem).toEqual({ code: 'out_of_range', min: 1, max: 10080 });
    const lookup = checkTemplateParams(
      template('midcall_lookup_table'),
      { table_id: 'x7', key_column: 'k', input_field: '9bad', tool_name: 'has space' },
      context,
    );
    expect(lookup.invalid.map((i) => i.spec.key)).toEqual(['table_id', 'input_field', 'tool_name']);
    expect(
      checkTemplateParams(template('post_call_webhook_forward'), { url: 'ftp://x' }, context).invalid[0].problem,
    ).toEqual({ code: 'url_refused', reason: 'The target url must be a public http or https URL.' });
    expect(
      checkTemplateParams(
        template('post_call_chatapp_followup'),
        { sender_id: 1, template_id: 2, test_phone_number: '+14155551234', variables_map: '[1]' },
        context,
      ).invalid[0].spec.key,
    ).toBe('variables_map');
  });
});
