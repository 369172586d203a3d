import {
  CreateTemplateRefusal,
  DeliveryStatusRefusal,
  FreeformMessageRefusal,
  SenderRefusal,
  SenderRegistrationRefusal,
  TemplateMessageRefusal,
} from '@voiceplane/application';
import { Answer, AnswerTable } from '../../pipeline/answers';
import { validationBody } from '../../pipeline/families';
import { presentSessionStatus, SESSION_EXPIRED_TEXT } from './chatapp-presenters';

/**
 * The chatapp family: `{success:false, error, error_code}` plus extra keys where stated. The
 * refusals carry lower-case codes; `error_code` is the upper-case wire code clients match on, and
 * these tables are the only place it is spelled.
 */
const chatapp = (status: number, error: string, code: string, extra: object = {}): Answer => ({
  status,
  body: { success: false, error, error_code: code, ...extra },
});

export const SENDER_NOT_FOUND = chatapp(404, 'Sender not found or does not belong to you', 'SENDER_NOT_FOUND');
export const TEMPLATE_NOT_FOUND = chatapp(
  404,
  'Template not found or does not belong to this sender',
  'TEMPLATE_NOT_FOUND',
);
export const MESSAGE_NOT_FOUND = chatapp(404, 'Message not found', 'MESSAGE_NOT_FOUND');
export const INVALID_PHONE = chatapp(
  422,
  'Invalid phone number format. Use E.164 format (e.g., +14155551234).',
  'INVALID_PHONE',
);
const INSUFFICIENT_BALANCE = chatapp(402, 'Insufficient balance to send this message.', 'INSUFFICIENT_BALANCE');
const senderOffline = (status: number) => (r: { senderStatus: string }) =>
  chatapp(status, `Sender is not online. Current status: ${r.senderStatus}`, 'SENDER_OFFLINE');
const sendFailed = (r: { reason: string }) =>
  chatapp(422, `The chat app rejected the message: ${r.reason}`, 'SEND_FAILED');

export const TEMPLATE_SEND_ANSWERS: AnswerTable<TemplateMessageRefusal> = {
  sender_not_found: SENDER_NOT_FOUND,
  template_not_found: TEMPLATE_NOT_FOUND,
  invalid_phone: INVALID_PHONE,
  sender_offline: senderOffline(422),
  template_not_approved: (r) =>
    chatapp(422, `Template is not approved. Current status: ${r.templateStatus}`, 'TEMPLATE_NOT_APPROVED'),
  template_variables_missing: (r) =>
    chatapp(422, `Missing template variables: ${r.missing.join(', ')}`, 'TEMPLATE_VARIABLES_MISSING'),
  insufficient_balance: INSUFFICIENT_BALANCE,
  send_failed: sendFailed,
};

/** An offline sender is a 503 here. */
export const FREEFORM_SEND_ANSWERS: AnswerTable<FreeformMessageRefusal> = {
  sender_not_found: SENDER_NOT_FOUND,
  invalid_phone: INVALID_PHONE,
  sender_offline: senderOffline(503),
  session_expired: (r) =>
    chatapp(403, SESSION_EXPIRED_TEXT, 'SESSION_EXPIRED', { session_status: presentSessionStatus(r.sessionStatus) }),
  insufficient_balance: INSUFFICIENT_BALANCE,
  media_fetch_failed: (r) => chatapp(422, `The media file could not be fetched: ${r.reason}`, 'MEDIA_FETCH_FAILED'),
  send_failed: sendFailed,
};

const invalidField = (field: string, text: string): Answer => ({
  status: 422,
  body: validationBody('chatapp', { [field]: [text] }),
});
/** The assistant a sender is given is not the caller's. */
export const SENDER_ASSISTANT_INVALID = invalidField('assistant_id', 'The selected assistant id is invalid.');

export const REGISTER_SENDER_ANSWERS: AnswerTable<SenderRegistrationRefusal> = {
  assistant_invalid: SENDER_ASSISTANT_INVALID,
  sender_exists: chatapp(409, 'A sender with this phone number already exists.', 'SENDER_EXISTS'),
  send_failed: sendFailed,
};

export const SENDER_ANSWERS: AnswerTable<SenderRefusal> = {
  sender_not_found: SENDER_NOT_FOUND,
  assistant_invalid: SENDER_ASSISTANT_INVALID,
};

/** The window with a recipient: an unknown sender before a malformed number. */
export const SESSION_ANSWERS: AnswerTable<'sender_not_found' | 'invalid_phone'> = {
  sender_not_found: SENDER_NOT_FOUND,
  invalid_phone: INVALID_PHONE,
};

export const MESSAGE_ANSWERS: AnswerTable<'message_not_found'> = { message_not_found: MESSAGE_NOT_FOUND };

const bodyTextInvalid = (text: string): Answer => ({
  status: 422,
  body: validationBody('chatapp', { body_text: [text] }),
});

/** Placeholder problems are validation errors of `body_text`. */
export const CREATE_TEMPLATE_ANSWERS: AnswerTable<CreateTemplateRefusal> = {
  sender_not_found: SENDER_NOT_FOUND,
  template_exists: chatapp(
    409,
    'A template with this name and language already exists for this sender.',
    'TEMPLATE_EXISTS',
  ),
  placeholders_mixed: bodyTextInvalid(
    'The body text may not mix positional ({{1}}) and named ({{name}}) placeholders.',
  ),
  placeholder_invalid: (r) => bodyTextInvalid(`The body text contains an invalid placeholder: ${r.placeholder}.`),
  placeholders_not_consecutive: (r) =>
    bodyTextInvalid(
      `The body text placeholders must be numbered from {{1}} without gaps (missing: ${r.missing.join(', ')}).`,
    ),
  send_failed: sendFailed,
};

/** A freeform send with neither text nor media. */
export const MESSAGE_OR_MEDIA_REQUIRED = invalidField(
  'message',
  'The message field is required when media url is not present.',
);
/** A sandbox inbound message with neither text nor media: the standard validation family. */
export const SANDBOX_TEXT_OR_MEDIA_REQUIRED: Answer = {
  status: 422,
  body: validationBody('standard', { text: ['The text field is required when media url is not present.'] }),
};
export const SANDBOX_INBOUND_HAS_NO_STATUS: Answer = {
  status: 422,
  body: { message: 'An inbound message has no delivery status.' },
};

/** Sandbox routes answer with the generic 404. */
export const SANDBOX_NOT_FOUND: Answer = { status: 404, body: { message: 'Not found.' } };
/** Sandbox chat-app controls: anything not the caller's is the generic 404. */
export const SANDBOX_ANSWERS: AnswerTable<DeliveryStatusRefusal> = {
  not_found: SANDBOX_NOT_FOUND,
  inbound_message: SANDBOX_INBOUND_HAS_NO_STATUS,
};
