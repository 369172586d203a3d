import { invalid } from './error-families';
import { AUTOMATION_HANDLER_ERRORS } from './automation-examples';
import { CHATAPP_HANDLER_ERRORS } from './chatapp-examples';
import { CHATAPP_VOICE_HANDLER_ERRORS } from './chatapp-voice-examples';
import { KNOWLEDGE_BASE_HANDLER_ERRORS } from './knowledge-base-examples';
import { WEB_CHAT_HANDLER_ERRORS } from './web-chat-examples';
import { SMS_HANDLER_ERRORS } from './sms-examples';

/**
 * The error answers of each operation's handler, by status, keyed like the document (`METHOD /path`): one real body
 * per error family, recorded from the HTTP test suites. The answers every route of a kind gives before its handler
 * runs (authentication, rate limits, Idempotency-Key, malformed JSON) come from pipeline-answers.ts instead.
 */
const RECORDED: Readonly<Record<string, Readonly<Record<number, readonly object[]>>>> = {
  'DELETE /api/user/api-keys/{id}': { 404: [{ message: 'API key not found.' }] },
  'DELETE /api/user/assistant/{id}': { 404: [{ message: 'Assistant not found' }] },
  'DELETE /api/user/calls/{id}': {
    404: [{ message: 'Call not found' }],
    409: [{ message: 'The call is still in progress and cannot be deleted.' }],
  },
  'DELETE /api/user/folder/{id}': { 404: [{ message: 'Folder not found' }] },
  'DELETE /api/user/label/{id}': { 404: [{ message: 'Label not found' }] },
  'DELETE /api/user/phone-numbers/{id}': {
    404: [{ error: 'Phone number not found.' }],
    500: [{ error: 'Failed to delete phone number. Please try again or contact support.' }],
  },
  'DELETE /api/user/tools/{id}': { 404: [{ message: 'Tool not found' }] },
  'GET /api/admin/users': {
    422: [invalid({ page: ['The page must be at least 1.'], per_page: ['The per page must be between 1 and 100.'] })],
  },
  'GET /api/admin/users/{id}': { 404: [{ message: 'User not found.' }] },
  'GET /api/runtime/calls/{id}/config': { 404: [{ message: 'Call not found' }] },
  'GET /api/user/assistant/{id}': { 404: [{ message: 'Assistant not found' }] },
  'GET /api/user/assistants': { 422: [invalid({ type: ['The selected type is invalid.'] })] },
  'GET /api/user/assistants/models': { 422: [invalid({ type: ['The selected type is invalid.'] })] },
  'GET /api/user/assistants/providers': { 422: [invalid({ kind: ['The selected kind is invalid.'] })] },
  'GET /api/user/assistants/voices': { 422: [invalid({ mode: ['The selected mode is invalid.'] })] },
  'GET /api/user/billing/ledger': { 422: [invalid({ type: ['The selected type is invalid.'] })] },
  'GET /api/user/billing/top-ups': { 422: [invalid({ status: ['The selected status is invalid.'] })] },
  'GET /api/user/billing/top-ups/{id}': { 404: [{ message: 'Top-up not found.' }] },
  'GET /api/user/calls': {
    422: [
      invalid({
        page: ['The page must be at least 1.'],
        per_page: ['The per page must be between 1 and 100.'],
        assistant_id: ['The assistant id must be an integer.'],
        status: ['The selected status is invalid.'],
        direction: ['The selected direction is invalid.'],
        channel: ['The selected channel is invalid.'],
        customer_phone: ['The customer phone must be a valid E.164 phone number.'],
        from: ['The from must be a valid date.'],
        to: ['The to must be a valid date.'],
      }),
    ],
  },
  'GET /api/user/calls/{id}': { 404: [{ message: 'Call not found' }] },
  'GET /api/user/calls/{id}/recording': { 404: [{ message: 'Recording not found' }] },
  'GET /api/user/folders': { 422: [invalid({ per_page: ['The per page must be between 1 and 100.'] })] },
  'GET /api/user/knowledgebases/{id}': { 404: [{ error: 'Knowledgebase not found.' }] },
  'GET /api/user/labels': { 422: [invalid({ per_page: ['The per page must be between 1 and 100.'] })] },
  'GET /api/user/phone-numbers/search': {
    422: [
      invalid({
        country_code: ['The selected country code is invalid.'],
        contains: ['The contains may only contain up to 10 digits.'],
      }),
    ],
    502: [{ message: 'Number search is temporarily unavailable.' }],
  },
  'GET /api/user/phone-numbers/sip-trunks/{id}': { 404: [{ error: 'SIP trunk not found.' }] },
  'GET /api/user/tools': { 422: [invalid({ type: ['The selected type is invalid.'] })] },
  'GET /api/user/tools/{id}': { 404: [{ message: 'Tool not found' }] },
  'GET /api/user/webhooks/deliveries': {
    422: [invalid({ page: ['The page must be at least 1.'], per_page: ['The per page must be between 1 and 100.'] })],
  },
  'GET /api/user/webhooks/deliveries/{id}': { 404: [{ message: 'Delivery not found' }] },
  'POST /api/admin/users': {
    409: [{ message: 'A user with this email already exists.' }],
    422: [
      invalid({
        'plan.api_rate_limit_per_minute': ['The plan.api_rate_limit_per_minute must be between 1 and 100000.'],
      }),
    ],
  },
  'POST /api/admin/users/{id}/balance': {
    404: [{ message: 'User not found.' }],
    422: [invalid({ amount: ['The amount must not be zero.'] })],
  },
  'POST /api/admin/users/{id}/event-types': {
    404: [{ message: 'User not found.' }],
    422: [
      invalid({ name: ['The name field is required.'], duration_minutes: ['The duration minutes field is required.'] }),
    ],
  },
  'POST /api/admin/users/{id}/knowledgebases': {
    404: [{ message: 'User not found.' }],
    422: [invalid({ name: ['The name field is required.'] })],
  },
  'POST /api/runtime/calls/inbound': {
    402: [{ message: 'Insufficient balance.' }],
    404: [{ message: 'No active assistant for this number.' }],
    422: [invalid({ to: ['The to field is required.'], from: ['The from field is required.'] })],
  },
  'POST /api/runtime/calls/{id}/events': {
    404: [{ message: 'Call not found' }],
    409: [{ message: 'Invalid call transition from ringing to completed.' }],
    422: [
      invalid({
        'data.items.0.role': ['The selected data.items.0.role is invalid.'],
        'data.items.0.content': ['The data.items.0.content field is required.'],
        'data.items.1': ['The data.items.1 must be an object.'],
      }),
    ],
  },
  'POST /api/runtime/knowledge-searches': {
    404: [{ message: 'Call not found' }, { message: "The call's assistant has no such knowledge base." }],
    409: [{ message: 'Call already ended.' }],
    422: [invalid({ query: ['The query field is required.'], mode: ['The selected mode is invalid.'] })],
  },
  'POST /api/runtime/tool-calls': {
    404: [{ message: 'Call not found' }],
    409: [{ message: 'Call already ended.' }],
    422: [invalid({ call_id: ['The call id field is required.'], tool_id: ['The tool id field is required.'] })],
  },
  'POST /api/providers/billing/{provider}/webhook': {
    400: [{ error: 'Invalid signature.' }],
    404: [{ error: 'Unknown provider.' }],
  },
  'POST /api/sandbox/billing/top-ups/{id}/complete': {
    404: [{ message: 'Not found.' }],
    409: [{ message: 'The top-up is already settled.' }],
    422: [invalid({ outcome: ['The selected outcome is invalid.'] })],
  },
  'POST /api/sandbox/calls/{id}/answer': {
    404: [{ message: 'Not found.' }],
    409: [{ message: 'Invalid call transition from busy to in-progress.' }],
  },
  'POST /api/sandbox/calls/{id}/finish': {
    404: [{ message: 'Not found.' }],
    409: [{ message: 'Invalid call transition from in-progress to busy.' }],
    422: [invalid({ status: ['The status field is required.'] })],
  },
  'POST /api/sandbox/calls/{id}/say': {
    404: [{ message: 'Not found.' }],
    409: [
      { message: 'The call is not in progress.' },
      { message: "The call's transcript is full (2,000 lines); end the call and start another." },
    ],
    422: [invalid({ text: ['The text field is required.'] })],
    502: [{ message: "The assistant's language model did not answer." }],
  },
  'POST /api/sandbox/faults': {
    404: [{ message: 'Not found.' }],
    422: [invalid({ kind: ['The kind field is required.'], count: ['The count must be between 1 and 100.'] })],
  },
  'POST /api/user/api-keys': { 422: [invalid({ name: ['The name field is required.'] })] },
  'POST /api/user/assistant': {
    422: [
      invalid({
        name: ['The name field is required.'],
        voice_id: ['The selected voice is not compatible with the chosen engine type.'],
      }),
    ],
  },
  'POST /api/user/assistant/{id}/activate': {
    404: [{ message: 'Assistant not found' }],
    422: [
      invalid({ system_prompt: ['The system prompt field is required.'] }),
      { message: 'The assistant is blocked for compliance review.' },
    ],
  },
  'POST /api/user/assistant/{id}/deactivate': { 404: [{ message: 'Assistant not found' }] },
  'POST /api/user/assistants/disable-conversation-ended-webhook': {
    404: [{ message: 'Assistant not found' }],
    422: [invalid({ assistant_id: ['The assistant id field is required.'] })],
  },
  'POST /api/user/assistants/disable-inbound-webhook': {
    404: [{ message: 'Assistant not found' }],
    422: [invalid({ assistant_id: ['The assistant id field is required.'] })],
  },
  'POST /api/user/assistants/enable-conversation-ended-webhook': {
    404: [{ message: 'Assistant not found' }],
    422: [
      invalid({
        assistant_id: ['The assistant id field is required.'],
        webhook_url: ['The webhook url field is required.'],
      }),
    ],
  },
  'POST /api/user/assistants/enable-inbound-webhook': {
    404: [{ message: 'Assistant not found' }],
    422: [
      invalid({
        assistant_id: ['The assistant id field is required.'],
        webhook_url: ['The webhook url field is required.'],
      }),
    ],
  },
  'POST /api/user/assistants/disable-webhook': {
    404: [{ message: 'Assistant not found' }],
    422: [invalid({ assistant_id: ['The assistant id field is required.'] })],
  },
  'POST /api/user/assistants/enable-webhook': {
    404: [{ message: 'Assistant not found' }],
    422: [
      invalid({
        assistant_id: ['The assistant id field is required.'],
        webhook_url: ['The webhook url field is required.'],
      }),
    ],
  },
  'POST /api/user/billing/top-ups': {
    422: [
      invalid({
        amount: ['The amount must be between 5 and 10000.', 'The amount may not have more than 2 decimal places.'],
      }),
    ],
    502: [{ message: 'The billing provider is unavailable.' }],
  },
  'POST /api/user/folder': { 422: [invalid({ name: ['The name field is required.'] })] },
  'POST /api/user/label': { 422: [invalid({ name: ['The name field is required.'] })] },
  'POST /api/user/login': {
    401: [{ error: 'Invalid credentials.' }],
    422: [
      invalid({ email: ['The email must be a valid email address.'], password: ['The password field is required.'] }),
    ],
    429: [{ message: 'Too Many Attempts.', retry_after: 42 }],
  },
  'POST /api/user/logout': { 400: [{ message: 'Only session tokens can be logged out.' }] },
  'POST /api/user/make_call': {
    400: [{ message: 'Invalid phone number format. Use E.164 format (e.g., +14155551234).' }],
    403: [{ message: 'This assistant is unavailable for compliance review.' }],
    404: [{ message: 'Assistant not found' }],
    422: [
      invalid({
        assistant_id: ['The assistant id must be an integer.'],
        phone_number: ['The phone number must be a string.'],
        variables: ['The variables must be an object.'],
      }),
      { message: 'Only outbound assistants can place calls.' },
    ],
    429: [{ message: 'Too many calls in progress for your plan.', retry_after: 30 }],
    502: [{ message: 'The call could not be placed. Please try again.' }],
  },
  'POST /api/user/phone-numbers/purchase': {
    400: [{ error: 'This number requires a registered address, which is not supported.' }],
    402: [{ error: 'Insufficient balance.' }],
    422: [invalid({ phone_number: ['The phone number field is required.'] })],
    500: [{ error: 'Failed to purchase phone number. Please try again or contact support.' }],
  },
  'POST /api/user/phone-numbers/sip-trunks': {
    409: [{ error: 'A SIP trunk with the same phone number, username, and address already exists.' }],
    422: [invalid({ sip_address: ['The sip address must be a host name or IP address without port.'] })],
    500: [{ error: 'Failed to create SIP trunk. Please try again or contact support.' }],
  },
  'POST /api/user/tools': {
    422: [
      invalid({ endpoint: ['The endpoint must be a public http or https URL.'] }),
      {
        message: 'You have reached your plan limit of 2 mid call tools. Please upgrade your plan to create more tools.',
      },
    ],
  },
  'POST /api/user/tools/{id}/render': {
    404: [{ message: 'Tool not found' }],
    422: [
      invalid({ params: ['The params must be an object.'] }),
      { message: 'Automation tools run inside voiceplane and cannot be rendered or tested.' },
    ],
  },
  'POST /api/user/tools/{id}/test': {
    404: [{ message: 'Tool not found' }],
    422: [
      invalid({ params: ['The params must be an object.'] }),
      { message: 'Automation tools run inside voiceplane and cannot be rendered or tested.' },
    ],
  },
  'POST /api/user/webhooks/deliveries/{id}/replay': {
    404: [{ message: 'Delivery not found' }],
    409: [{ message: 'Delivery is already pending.' }],
  },
  'POST /api/user/webhooks/test': { 422: [invalid({ url: ['The url field is required.'] })] },
  'PUT /api/admin/assistants/{id}/compliance': {
    404: [{ message: 'Assistant not found' }],
    422: [invalid({ blocked: ['The blocked field is required.'] })],
  },
  'PUT /api/admin/users/{id}/plan': {
    404: [{ message: 'User not found.' }],
    422: [invalid({ max_mid_call_tools: ['The max mid call tools must be between 0 and 1000.'] })],
  },
  'PUT /api/admin/users/{id}/status': {
    404: [{ message: 'User not found.' }],
    422: [invalid({ disabled: ['The disabled field is required.'] })],
  },
  'PUT /api/user/assistant/{id}': {
    404: [{ message: 'Assistant not found' }],
    422: [
      invalid({ tool_ids: ['The tool ids field must have a value.'], name: ['The name field must have a value.'] }),
    ],
  },
  'PUT /api/user/billing/auto-recharge': {
    422: [
      invalid({ threshold: ['The threshold must be between 0 and 1000.'] }),
      invalid({ enabled: ['A saved payment method is required. Complete a top-up first.'] }),
    ],
  },
  'PUT /api/user/folder/{id}': {
    404: [{ message: 'Folder not found' }],
    422: [
      invalid({
        name: ['The name may not be greater than 255 characters.'],
        color: ['The selected color is invalid.'],
      }),
    ],
  },
  'PUT /api/user/label/{id}': {
    404: [{ message: 'Label not found' }],
    422: [
      invalid({
        name: ['The name may not be greater than 255 characters.'],
        color: ['The selected color is invalid.'],
      }),
    ],
  },
  'PUT /api/user/phone-numbers/sip-trunks/{id}': {
    404: [{ error: 'SIP trunk not found.' }],
    409: [{ error: 'A SIP trunk with the same phone number, username, and address already exists.' }],
    422: [
      invalid({
        nickname: ['The nickname must be a string.'],
        sip_username: ['The sip username field must have a value.'],
      }),
    ],
    500: [{ error: 'Failed to update SIP trunk. Please try again or contact support.' }],
  },
  'PUT /api/user/phone-numbers/{id}': {
    404: [{ error: 'Phone number not found.' }],
    422: [invalid({ nickname: ['The nickname may not be greater than 50 characters.'] })],
  },
  'PUT /api/user/tools/{id}': {
    404: [{ message: 'Tool not found' }],
    422: [invalid({ timeout: ['The timeout must be between 1 and 30.'] })],
  },
};

export const HANDLER_ERRORS: Readonly<Record<string, Readonly<Record<number, readonly object[]>>>> = {
  ...RECORDED,
  ...AUTOMATION_HANDLER_ERRORS,
  ...CHATAPP_HANDLER_ERRORS,
  ...CHATAPP_VOICE_HANDLER_ERRORS,
  ...KNOWLEDGE_BASE_HANDLER_ERRORS,
  ...WEB_CHAT_HANDLER_ERRORS,
  ...SMS_HANDLER_ERRORS,
  'GET /api/user/assistants/phone-numbers': { 422: [invalid({ type: ['The selected type is invalid.'] })] },
  'GET /api/user/assistants/get': RECORDED['GET /api/user/assistants'],
  'GET /api/user/analytics/calls': {
    422: [
      invalid({ to: ['The to must be a date after or equal to from.'] }),
      invalid({ from: ['The range may not be longer than 366 days.'] }),
    ],
  },
  'GET /api/user/events/stream': { 429: [{ message: 'Too many open event streams.', retry_after: 30 }] },
};
