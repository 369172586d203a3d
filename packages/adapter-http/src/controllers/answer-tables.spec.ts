import { applyRuntimeEvent, findTemplate, sessionStatus } from '@voiceplane/domain';
import { answerFor } from '../pipeline/answers';
import { ACCOUNT_ANSWERS } from './account-answers';
import { ACTIVATION_ANSWERS, folderAnswers, saveAnswers } from './assistants/assistant-answers';
import { CONNECTION_ANSWERS, DATA_TABLE_ANSWERS } from './automations/automation-answers';
import {
  CALL_EVENT_ANSWERS,
  INBOUND_CALL_ANSWERS,
  MAKE_CALL_ANSWERS,
  SANDBOX_CALL_EVENT_ANSWERS,
} from './calls/call-answers';
import { PURCHASE_ANSWERS, sipTrunkWriteAnswers, UPDATE_TRUNK_FAILED } from './telephony/telephony-answers';
import { TOOL_ANSWERS, TOOL_CALL_ANSWERS } from './tools/tool-answers';
import { WEBHOOK_ANSWERS } from './webhooks/webhook-answers';
import { APPLY_ANSWERS, RESTORE_ANSWERS } from './automations/automation-answers';
import { DATA_TABLE_MESSAGES, stepErrorText } from './automations/automation-messages';
import {
  CREATE_TEMPLATE_ANSWERS,
  FREEFORM_SEND_ANSWERS,
  REGISTER_SENDER_ANSWERS,
  TEMPLATE_SEND_ANSWERS,
} from './chatapp/chatapp-answers';
import { presentSessionStatus } from './chatapp/chatapp-presenters';
import {
  CHATAPP_CALL_ANSWERS,
  PERMISSION_READ_ANSWERS,
  PERMISSION_REQUEST_ANSWERS,
} from './chatapp-voice/chatapp-voice-answers';
import { BILLING_INGRESS_ANSWERS, SANDBOX_SETTLE_ANSWERS, START_TOP_UP_ANSWERS } from './top-ups/top-up-answers';
import { fieldErrors } from '../pipeline/field-messages';
import {
  CALL_KNOWLEDGE_ANSWERS,
  KNOWLEDGE_BASE_ANSWERS,
  KNOWLEDGE_BASE_SUCCESS,
} from './knowledge-bases/knowledge-base-answers';
import { INGRESS_ANSWERS } from './chatapp-providers/chatapp-ingress-answers';
import { ACCOUNT_SUCCESS } from './account-answers';
import { ASSISTANT_SUCCESS, folderSuccess } from './assistants/assistant-answers';
import { AUTOMATION_SUCCESS, CONNECTION_SUCCESS, DATA_TABLE_SUCCESS } from './automations/automation-answers';
import { TELEPHONY_SUCCESS } from './telephony/telephony-answers';
import { TOOL_SUCCESS } from './tools/tool-answers';
import { WEBHOOK_SUCCESS } from './webhooks/webhook-answers';
import { CALL_MESSAGES } from './calls/call-messages';

/** The literal answers, one or two per table. */
describe('answer tables', () => {
  it('words the tool plan limit with the plan', () => {
    expect(answerFor(TOOL_ANSWERS, { code: 'plan_limit', limit: 5 })).toEqual({
      status: 422,
      body: {
        message: 'You have reached your plan limit of 5 mid call tools. Please upgrade your plan to create more tools.',
      },
    });
    expect(answerFor(TOOL_ANSWERS, 'tool_not_found')).toEqual({ status: 404, body: { message: 'Tool not found' } });
    expect(answerFor(TOOL_ANSWERS, 'call_not_found')).toEqual({
      status: 422,
      body: { message: 'The given data was invalid.', errors: { call_id: ['The selected call id is invalid.'] } },
    });
    expect(answerFor(TOOL_CALL_ANSWERS, 'call_ended')).toEqual({
      status: 409,
      body: { message: 'Call already ended.' },
    });
  });

  it('words data-table and connection refusals in the standard family', () => {
    expect(answerFor(DATA_TABLE_ANSWERS, 'name_taken')).toEqual({
      status: 422,
      body: { message: 'The given data was invalid.', errors: { name: ['The name has already been taken.'] } },
    });
    expect(answerFor(DATA_TABLE_ANSWERS, 'table_full')).toEqual({
      status: 422,
      body: { message: 'A table can hold at most 10000 rows.' },
    });
    expect(
      answerFor(CONNECTION_ANSWERS, {
        code: 'invalid_credentials',
        problems: { auth_value: 'basic_format', auth_header_name: 'required' },
      }),
    ).toEqual({
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
    expect(answerFor(MAKE_CALL_ANSWERS, 'assistant_not_found')).toEqual({
      status: 404,
      body: { message: 'Assistant not found' },
    });
    expect(answerFor(MAKE_CALL_ANSWERS, 'compliance_blocked')).toEqual({
      status: 403,
      body: { message: 'This assistant is unavailable for compliance review.' },
    });
    expect(answerFor(MAKE_CALL_ANSWERS, 'too_many_calls')).toEqual({
      status: 429,
      body: { message: 'Too many calls in progress for your plan.', retry_after: 30 },
      headers: { 'Retry-After': '30' },
    });
    expect(answerFor(INBOUND_CALL_ANSWERS, 'insufficient_balance')).toEqual({
      status: 402,
      body: { message: 'Insufficient balance.' },
    });
  });

  it('names both ends of a refused transition', () => {
    const r = applyRuntimeEvent('completed', 'ringing');
    if (r.ok) throw new Error('expected refusal');
    expect(answerFor(CALL_EVENT_ANSWERS, r.error)).toEqual({
      status: 409,
      body: { message: 'Invalid call transition from completed to ringing.' },
    });
    expect(answerFor(SANDBOX_CALL_EVENT_ANSWERS, { code: 'call_not_found' })).toEqual({
      status: 404,
      body: { message: 'Not found.' },
    });
  });

  it('puts shape errors before rule problems in a refused assistant save', () => {
    const answer = answerFor(saveAnswers({ name: ['The name field is required.'] }), {
      code: 'invalid',
      problems: { folder_id: ['selected_invalid'], tool_ids: [{ code: 'duplicate_tool_name', name: 'check_order' }] },
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
    expect(answerFor(ACTIVATION_ANSWERS, { code: 'compliance_blocked' })).toEqual({
      status: 422,
      body: { message: 'The assistant is blocked for compliance review.' },
    });
    expect(answerFor(folderAnswers('Label'), 'not_found')).toEqual({
      status: 404,
      body: { message: 'Label not found' },
    });
    expect(
      answerFor(folderAnswers('Folder'), {
        code: 'invalid_fields',
        errors: { color: ['The selected color is invalid.'] },
      }),
    ).toEqual({
      status: 422,
      body: { message: 'The given data was invalid.', errors: { color: ['The selected color is invalid.'] } },
    });
  });

  it('answers SIP trunks and numbers in the sip family', () => {
    expect(
      answerFor(sipTrunkWriteAnswers(UPDATE_TRUNK_FAILED), {
        code: 'invalid',
        problems: { allowed_inbound_ips: ['ip_list_required'] },
      }),
    ).toEqual({
      status: 422,
      body: {
        message: 'The given data was invalid.',
        errors: {
          allowed_inbound_ips: ['At least one allowed IP address is required when authorization type is "ip".'],
        },
      },
    });
    expect(answerFor(sipTrunkWriteAnswers(UPDATE_TRUNK_FAILED), { code: 'provisioning_failed' })).toEqual({
      status: 500,
      body: { error: 'Failed to update SIP trunk. Please try again or contact support.' },
    });
    expect(answerFor(PURCHASE_ANSWERS, 'address_required')).toEqual({
      status: 400,
      body: { error: 'This number requires a registered address, which is not supported.' },
    });
  });

  it('answers accounts and webhooks', () => {
    expect(answerFor(ACCOUNT_ANSWERS, 'invalid_credentials')).toEqual({
      status: 401,
      body: { error: 'Invalid credentials.' },
    });
    expect(answerFor(ACCOUNT_ANSWERS, 'email_taken')).toEqual({
      status: 409,
      body: { message: 'A user with this email already exists.' },
    });
    expect(answerFor(WEBHOOK_ANSWERS, 'already_pending')).toEqual({
      status: 409,
      body: { message: 'Delivery is already pending.' },
    });
  });

  it('answers chat-app sends with the upper-case wire codes', () => {
    expect(answerFor(TEMPLATE_SEND_ANSWERS, { code: 'sender_offline', senderStatus: 'offline' })).toEqual({
      status: 422,
      body: { success: false, error: 'Sender is not online. Current status: offline', error_code: 'SENDER_OFFLINE' },
    });
    expect(answerFor(FREEFORM_SEND_ANSWERS, { code: 'sender_offline', senderStatus: 'offline' })).toMatchObject({
      status: 503,
      body: { error_code: 'SENDER_OFFLINE' },
    });
    expect(answerFor(TEMPLATE_SEND_ANSWERS, { code: 'template_variables_missing', missing: ['1', 'name'] })).toEqual({
      status: 422,
      body: { success: false, error: 'Missing template variables: 1, name', error_code: 'TEMPLATE_VARIABLES_MISSING' },
    });
    const expired = sessionStatus(null, new Date('2026-03-01T10:00:00.000Z'));
    expect(answerFor(FREEFORM_SEND_ANSWERS, { code: 'session_expired', sessionStatus: expired })).toEqual({
      status: 403,
      body: {
        success: false,
        error: 'Session expired. Send a template message to reopen the conversation.',
        error_code: 'SESSION_EXPIRED',
        session_status: {
          is_open: false,
          can_send_freeform: false,
          requires_template: true,
          message: 'No conversation exists with this recipient. Send a template message first.',
          expired_at: null,
        },
      },
    });
    expect(answerFor(REGISTER_SENDER_ANSWERS, { code: 'send_failed', reason: 'quota' })).toEqual({
      status: 422,
      body: { success: false, error: 'The chat app rejected the message: quota', error_code: 'SEND_FAILED' },
    });
    expect(answerFor(CREATE_TEMPLATE_ANSWERS, { code: 'placeholders_mixed' })).toEqual({
      status: 422,
      body: {
        success: false,
        error: 'The body text may not mix positional ({{1}}) and named ({{name}}) placeholders.',
        error_code: 'VALIDATION_ERROR',
        errors: { body_text: ['The body text may not mix positional ({{1}}) and named ({{name}}) placeholders.'] },
      },
    });
  });

  it('words the session status in the presenter', () => {
    const window = { lastCustomerMessageAt: new Date('2026-03-01T10:00:00.000Z'), lastTemplateSentAt: null };
    expect(presentSessionStatus(sessionStatus(window, new Date('2026-03-01T10:15:00.000Z')))).toEqual({
      is_open: true,
      can_send_freeform: true,
      requires_template: false,
      message: 'Session open (23 hr 45 min remaining). Unlimited free-form messages allowed.',
      minutes_remaining: 1425,
      expires_at: '2026-03-02T10:00:00.000Z',
    });
    expect(presentSessionStatus(sessionStatus(window, new Date('2026-03-02T09:59:00.010Z'))).message).toBe(
      'Session open (0 hr 0 min remaining). Unlimited free-form messages allowed.',
    );
    expect(presentSessionStatus(sessionStatus(window, new Date('2026-03-03T10:00:00.000Z'))).message).toBe(
      'Session expired. Send a template message to reopen the conversation.',
    );
  });

  it('answers chat-app voice refusals: one NO_PERMISSION code with two texts, limits with their retry hints', () => {
    expect(answerFor(CHATAPP_CALL_ANSWERS, { code: 'no_permission' })).toEqual({
      status: 422,
      body: { success: false, error: 'The customer has not granted call permission.', error_code: 'NO_PERMISSION' },
    });
    expect(answerFor(CHATAPP_CALL_ANSWERS, { code: 'permission_expired' })).toEqual({
      status: 422,
      body: { success: false, error: "The customer's call permission has expired.", error_code: 'NO_PERMISSION' },
    });
    expect(
      answerFor(CHATAPP_CALL_ANSWERS, { code: 'contact_rate_limit', retryAfterSeconds: 60, retryAt: new Date(0) }),
    ).toEqual({
      status: 429,
      body: {
        success: false,
        error: 'Too many call attempts to this contact. Try again later.',
        error_code: 'CONTACT_RATE_LIMIT',
        retry_after: 60,
      },
      headers: { 'Retry-After': '60' },
    });
    expect(answerFor(CHATAPP_CALL_ANSWERS, { code: 'region_not_supported', country: 'US' })).toMatchObject({
      status: 422,
      body: {
        error: 'Business-initiated calls are not available for senders in US.',
        error_code: 'REGION_NOT_SUPPORTED',
      },
    });
    expect(answerFor(PERMISSION_REQUEST_ANSWERS, { code: 'template_missing' })).toMatchObject({
      status: 422,
      body: { error_code: 'TEMPLATE_NOT_FOUND' },
    });
    expect(
      answerFor(PERMISSION_REQUEST_ANSWERS, {
        code: 'request_limit',
        reason: 'daily_limit',
        retryAt: new Date('2026-03-02T10:00:00.000Z'),
      }),
    ).toEqual({
      status: 422,
      body: {
        success: false,
        error: 'A call permission request was already sent to this contact in the last 24 hours.',
        error_code: 'REQUEST_LIMIT',
        reason: 'daily_limit',
        retry_at: '2026-03-02T10:00:00.000Z',
      },
    });
    expect(answerFor(PERMISSION_READ_ANSWERS, { code: 'sender_not_found' })).toMatchObject({
      status: 404,
      body: { error_code: 'SENDER_NOT_FOUND' },
    });
  });

  it('answers automations, wording refused params with their labels', () => {
    const delay = findTemplate('delayed_followup_call')!.params.find((p) => p.key === 'delay_minutes')!;
    const phone = findTemplate('delayed_followup_call')!.params.find((p) => p.key === 'test_phone_number')!;
    expect(
      answerFor(APPLY_ANSWERS, {
        code: 'invalid_params',
        problems: [
          { spec: delay, problem: { code: 'out_of_range', min: 1, max: 10080 } },
          { spec: phone, problem: { code: 'not_phone' } },
        ],
      }),
    ).toEqual({
      status: 422,
      body: {
        message: 'The given data was invalid.',
        error: 'invalid_params',
        params: [delay, phone],
        errors: {
          'params.delay_minutes': ['The delay (minutes) must be between 1 and 10080.'],
          'params.test_phone_number': ['The test phone number must be a valid E.164 phone number.'],
        },
      },
    });
    expect(answerFor(APPLY_ANSWERS, { code: 'tool_limit_reached', limit: 3 })).toEqual({
      status: 422,
      body: {
        message: 'You have reached your plan limit of 3 mid call tools. Please upgrade your plan to create more tools.',
        error: 'tool_limit_reached',
        params: null,
      },
    });
    expect(answerFor(RESTORE_ANSWERS, { code: 'no_previous_version' })).toEqual({
      status: 422,
      body: {
        message: 'There is no earlier published version to restore.',
        error: 'no_previous_version',
        params: null,
      },
    });
    expect(
      fieldErrors(
        { 'columns.1.name': [{ code: 'duplicate' }], 'rows.0.values': [{ code: 'too_large', maxBytes: 8192 }] },
        DATA_TABLE_MESSAGES,
      ),
    ).toEqual({
      'columns.1.name': ['The columns.1.name field has a duplicate value.'],
      'rows.0.values': ['The rows.0.values may not be greater than 8 kilobytes.'],
    });
    expect(stepErrorText({ reason: 'dispatch_failed', detail: null })).toBe('The call could not be placed.');
    expect(stepErrorText({ reason: 'time_limit_exceeded', detail: '600' })).toBe('Run exceeded 600 seconds.');
  });

  it('answers top-ups', () => {
    expect(
      answerFor(START_TOP_UP_ANSWERS, { code: 'invalid_amount', problems: [{ code: 'between', min: 5, max: 1000 }] }),
    ).toEqual({
      status: 422,
      body: { message: 'The given data was invalid.', errors: { amount: ['The amount must be between 5 and 1000.'] } },
    });
    expect(answerFor(START_TOP_UP_ANSWERS, 'provider_unavailable')).toEqual({
      status: 502,
      body: { message: 'The billing provider is unavailable.' },
    });
    expect(answerFor(SANDBOX_SETTLE_ANSWERS, { code: 'already_settled', status: 'succeeded' })).toEqual({
      status: 409,
      body: { message: 'The top-up is already settled.' },
    });
    expect(answerFor(BILLING_INGRESS_ANSWERS, 'invalid_signature')).toEqual({
      status: 400,
      body: { error: 'Invalid signature.' },
    });
  });

  it("answers knowledge bases and the runtime's searches", () => {
    expect(answerFor(KNOWLEDGE_BASE_ANSWERS, { code: 'limit_reached', limit: 'bytes', max: 5 * 1024 * 1024 })).toEqual({
      status: 422,
      body: {
        message: 'The given data was invalid.',
        errors: { type: ['Your plan allows at most 5 MB of documents across your knowledge bases.'] },
      },
    });
    expect(answerFor(KNOWLEDGE_BASE_ANSWERS, 'not_found')).toEqual({
      status: 404,
      body: { error: 'Knowledgebase not found.' },
    });
    expect(answerFor(CALL_KNOWLEDGE_ANSWERS, 'knowledge_base_not_found')).toEqual({
      status: 404,
      body: { message: "The call's assistant has no such knowledge base." },
    });
  });

  it('answers the chat-app provider ingress in the error family', () => {
    expect(answerFor(INGRESS_ANSWERS, 'unknown_provider')).toEqual({
      status: 404,
      body: { error: 'Unknown provider.' },
    });
    expect(answerFor(INGRESS_ANSWERS, 'invalid_signature')).toEqual({
      status: 401,
      body: { error: 'Invalid signature.' },
    });
  });

  it('words successful writes as clients read them', () => {
    expect(ACCOUNT_SUCCESS.loggedIn).toBe('Login successful.');
    expect(ACCOUNT_SUCCESS.apiKeyDeleted).toBe('API key deleted successfully.');
    expect(ASSISTANT_SUCCESS.updated).toBe('Assistant updated successfully');
    expect(folderSuccess('Folder').deleted).toBe('Folder deleted successfully');
    expect(folderSuccess('Label').created).toBe('Label created successfully');
    expect(AUTOMATION_SUCCESS.restored(2, 4, 'disabled')).toBe(
      'Version 2 is live again as version 4. The automation stays disabled.',
    );
    expect(CONNECTION_SUCCESS.deleted).toBe('Connection deleted successfully');
    expect(DATA_TABLE_SUCCESS.rowsAdded).toBe('Rows added successfully');
    expect(CALL_MESSAGES.initiated).toBe('Call initiated successfully');
    expect(TELEPHONY_SUCCESS.dryRun).toBe('Dry run: no changes were made.');
    expect(TOOL_SUCCESS.created).toBe('Tool created successfully');
    expect(WEBHOOK_SUCCESS.secretRotated).toBe('Signing secret rotated.');
    expect(KNOWLEDGE_BASE_SUCCESS.knowledgeBaseDeleted).toBe('Knowledgebase deleted successfully');
  });
});
