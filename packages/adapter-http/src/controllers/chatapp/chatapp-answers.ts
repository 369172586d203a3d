import { senderOfflineText, SESSION_EXPIRED_TEXT } from '@voiceplane/domain';
import { CreateTemplateRefusal, FreeformMessageRefusal, RegisterSenderRefusal, TemplateMessageRefusal } from '@voiceplane/application';
import { Answer, AnswerTable } from '../../pipeline/answers';
import { validationBody } from '../../pipeline/families';
import { presentSessionStatus } from './chatapp-presenters';

/** The chatapp family: `{success:false, error, error_code}` plus extra keys where stated. */
const chatapp = (status: number, error: string, code: string, extra: object = {}): Answer => ({
  status, body: { success: false, error, error_code: code, ...extra },
});

export const SENDER_NOT_FOUND = chatapp(404, 'Sender not found or does not belong to you', 'SENDER_NOT_FOUND');
export const TEMPLATE_NOT_FOUND = chatapp(404, 'Template not found or does not belong to this sender', 'TEMPLATE_NOT_FOUND');
export const MESSAGE_NOT_FOUND = chatapp(404, 'Message not found', 'MESSAGE_NOT_FOUND');
export const INVALID_PHONE = chatapp(422, 'Invalid phone number format. Use E.164 format (e.g., +14155551234).', 'INVALID_PHONE');
const INSUFFICIENT_BALANCE = chatapp(402, 'Insufficient balance to send this message.', 'INSUFFICIENT_BALANCE');
const senderOffline = (status: number) => (r: { senderStatus: string }) => chatapp(status, senderOfflineText(r.senderStatus), 'SENDER_OFFLINE');
const sendFailed = (r: { reason: string }) => chatapp(422, `The chat app rejected the message: ${r.reason}`, 'SEND_FAILED');

export const TEMPLATE_SEND_ANSWERS: AnswerTable<TemplateMessageRefusal> = {
  SENDER_NOT_FOUND,
  TEMPLATE_NOT_FOUND,
  INVALID_PHONE,
  SENDER_OFFLINE: senderOffline(422),
  TEMPLATE_NOT_APPROVED: (r) => chatapp(422, `Template is not approved. Current status: ${r.templateStatus}`, 'TEMPLATE_NOT_APPROVED'),
  TEMPLATE_VARIABLES_MISSING: (r) => chatapp(422, `Missing template variables: ${r.missing.join(', ')}`, 'TEMPLATE_VARIABLES_MISSING'),
  INSUFFICIENT_BALANCE,
  SEND_FAILED: sendFailed,
};

/** An offline sender is a 503 here. */
export const FREEFORM_SEND_ANSWERS: AnswerTable<FreeformMessageRefusal> = {
  SENDER_NOT_FOUND,
  INVALID_PHONE,
  SENDER_OFFLINE: senderOffline(503),
  SESSION_EXPIRED: (r) => chatapp(403, SESSION_EXPIRED_TEXT, 'SESSION_EXPIRED', { session_status: presentSessionStatus(r.sessionStatus) }),
  INSUFFICIENT_BALANCE,
  MEDIA_FETCH_FAILED: (r) => chatapp(422, `The media file could not be fetched: ${r.reason}`, 'MEDIA_FETCH_FAILED'),
  SEND_FAILED: sendFailed,
};

export const REGISTER_SENDER_ANSWERS: AnswerTable<RegisterSenderRefusal> = {
  SENDER_EXISTS: chatapp(409, 'A sender with this phone number already exists.', 'SENDER_EXISTS'),
  SEND_FAILED: sendFailed,
};

const bodyTextInvalid = (text: string): Answer => ({ status: 422, body: validationBody('chatapp', { body_text: [text] }) });

/** Placeholder problems are validation errors of `body_text`. */
export const CREATE_TEMPLATE_ANSWERS: AnswerTable<CreateTemplateRefusal> = {
  SENDER_NOT_FOUND,
  TEMPLATE_EXISTS: chatapp(409, 'A template with this name and language already exists for this sender.', 'TEMPLATE_EXISTS'),
  placeholders_mixed: bodyTextInvalid('The body text may not mix positional ({{1}}) and named ({{name}}) placeholders.'),
  placeholder_invalid: (r) => bodyTextInvalid(`The body text contains an invalid placeholder: ${r.placeholder}.`),
  placeholders_not_consecutive: (r) => bodyTextInvalid(`The body text placeholders must be numbered from {{1}} without gaps (missing: ${r.missing.join(', ')}).`),
  SEND_FAILED: sendFailed,
};

/** Conversation family. */
export const CONVERSATION_NOT_FOUND: Answer = { status: 404, body: { status: false, error: 'Conversation not found' } };
/** Sandbox routes answer with the generic 404. */
export const SANDBOX_NOT_FOUND: Answer = { status: 404, body: { message: 'Not found.' } };
