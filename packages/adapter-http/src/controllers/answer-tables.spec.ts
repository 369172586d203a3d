import { applyRuntimeEvent } from '@voiceplane/domain';
import { answerFor } from '../pipeline/answers';
import { ACCOUNT_ANSWERS } from './account-answers';
import { ACTIVATION_ANSWERS, groupAnswers, saveAnswers } from './assistants/assistant-answers';
import { CONNECTION_ANSWERS, DATA_TABLE_ANSWERS } from './automations/automation-answers';
import { CALL_EVENT_ANSWERS, INBOUND_CALL_ANSWERS, MAKE_CALL_ANSWERS, SANDBOX_CALL_EVENT_ANSWERS } from './calls/call-answers';
import { PURCHASE_ANSWERS, sipTrunkWriteAnswers, UPDATE_TRUNK_FAILED } from './telephony/telephony-answers';
import { TOOL_ANSWERS, TOOL_CALL_ANSWERS } from './tools/tool-answers';
import { WEBHOOK_ANSWERS } from './webhooks/webhook-answers';

/** The literal answers, one or two per table. */
describe('answer tables', () => {
  it('words the tool plan limit with the plan', () => {
    expect(answerFor(TOOL_ANSWERS, { code: 'plan_limit', limit: 5 })).toEqual({
      status: 422,
      body: { message: 'You have reached your plan limit of 5 mid call tools. Please upgrade your plan to create more tools.' },
    });
    expect(answerFor(TOOL_ANSWERS, 'tool_not_found')).toEqual({ status: 404, body: { message: 'Tool not found' } });
    expect(answerFor(TOOL_ANSWERS, 'call_not_found')).toEqual({
      status: 422, body: { message: 'The given data was invalid.', errors: { call_id: ['The selected call id is invalid.'] } },
    });
    expect(answerFor(TOOL_CALL_ANSWERS, 'call_ended')).toEqual({ status: 409, body: { message: 'Call already ended.' } });
  });

  it('words data-table and connection refusals in the standard family', () => {
    expect(answerFor(DATA_TABLE_ANSWERS, 'name_taken')).toEqual({
      status: 422, body: { message: 'The given data was invalid.', errors: { name: ['The name has already been taken.'] } },
    });
    expect(answerFor(DATA_TABLE_ANSWERS, 'table_full')).toEqual({ status: 422, body: { message: 'A table can hold at most 10000 rows.' } });
    expect(answerFor(CONNECTION_ANSWERS, { code: 'invalid_credentials', problems: { auth_value: 'basic_format', auth_header_name: 'required' } })).toEqual({
      status: 422,
      body: {
        message: 'The given data was invalid.',
        errors: {
          auth_value: ['The auth value must be user:password for basic authentication.'],
          auth_header_name: ['The auth header name field is required when auth type is header.'],
        },
      },
    });
  });

  it('answers make_call refusals, too_many_calls with its retry hint', () => {
    expect(answerFor(MAKE_CALL_ANSWERS, 'assistant_not_found')).toEqual({ status: 404, body: { message: 'Assistant not found' } });
    expect(answerFor(MAKE_CALL_ANSWERS, 'compliance_blocked')).toEqual({ status: 403, body: { message: 'This assistant is unavailable for compliance review.' } });
    expect(answerFor(MAKE_CALL_ANSWERS, 'too_many_calls')).toEqual({
      status: 429, body: { message: 'Too many calls in progress for your plan.', retry_after: 30 }, headers: { 'Retry-After': '30' },
    });
    expect(answerFor(INBOUND_CALL_ANSWERS, 'insufficient_balance')).toEqual({ status: 402, body: { message: 'Insufficient balance.' } });
  });

  it('names both ends of a refused transition', () => {
    const r = applyRuntimeEvent('completed', 'ringing');
    if (r.ok) throw new Error('expected refusal');
    expect(answerFor(CALL_EVENT_ANSWERS, r.error)).toEqual({ status: 409, body: { message: 'Invalid call transition from completed to ringing.' } });
    expect(answerFor(SANDBOX_CALL_EVENT_ANSWERS, { code: 'call_not_found' })).toEqual({ status: 404, body: { message: 'Not found.' } });
  });

  it('puts shape errors before rule problems in a refused assistant save', () => {
    const answer = answerFor(saveAnswers({ name: ['The name field is required.'] }), {
      code: 'invalid', problems: { folder_id: ['selected_invalid'], tool_ids: [{ code: 'duplicate_tool_name', name: 'check_order' }] },
    });
    expect(answer).toEqual({
      status: 422,
      body: {
        message: 'The given data was invalid.',
        errors: {
          name: ['The name field is required.'],
          folder_id: ['The selected folder id is invalid.'],
          tool_ids: ['Two attached tools have the same name: check_order.'],
        },
      },
    });
    expect(Object.keys((answer.body as { errors: object }).errors)).toEqual(['name', 'folder_id', 'tool_ids']);
  });

  it('answers activation, folders and labels', () => {
    expect(answerFor(ACTIVATION_ANSWERS, { code: 'compliance_blocked' })).toEqual({ status: 422, body: { message: 'The assistant is blocked for compliance review.' } });
    expect(answerFor(groupAnswers('Label'), 'not_found')).toEqual({ status: 404, body: { message: 'Label not found' } });
  });

  it('answers SIP trunks and numbers in the sip family', () => {
    expect(answerFor(sipTrunkWriteAnswers(UPDATE_TRUNK_FAILED), { code: 'invalid', problems: { allowed_inbound_ips: ['ip_list_required'] } })).toEqual({
      status: 422,
      body: { message: 'The given data was invalid.', errors: { allowed_inbound_ips: ['At least one allowed IP address is required when authorization type is "ip".'] } },
    });
    expect(answerFor(sipTrunkWriteAnswers(UPDATE_TRUNK_FAILED), { code: 'provisioning_failed' })).toEqual({
      status: 500, body: { error: 'Failed to update SIP trunk. Please try again or contact support.' },
    });
    expect(answerFor(PURCHASE_ANSWERS, 'address_required')).toEqual({ status: 400, body: { error: 'This number requires a registered address, which is not supported.' } });
  });

  it('answers accounts and webhooks', () => {
    expect(answerFor(ACCOUNT_ANSWERS, 'invalid_credentials')).toEqual({ status: 401, body: { error: 'Invalid credentials.' } });
    expect(answerFor(ACCOUNT_ANSWERS, 'email_taken')).toEqual({ status: 409, body: { message: 'A user with this email already exists.' } });
    expect(answerFor(WEBHOOK_ANSWERS, 'already_pending')).toEqual({ status: 409, body: { message: 'Delivery is already pending.' } });
  });
});
