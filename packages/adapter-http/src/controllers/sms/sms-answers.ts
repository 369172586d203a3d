import { SendSmsRefusal } from '@voiceplane/application';
import { Answer, AnswerTable } from '../../pipeline/answers';

/**
 * The answers of Famulor's `sms/send.mdx`, word for word: every refusal of the send is a 400
 * `{message}` (a number of another account is "not found", like one that does not exist), and a
 * provider failure is a 500 with the reason in `error` — nothing was charged, so a retry is safe.
 */
export const SEND_SMS_ANSWERS: AnswerTable<SendSmsRefusal> = {
  invalid_phone: { status: 400, body: { message: 'Invalid phone number format' } },
  from_not_found: { status: 400, body: { message: 'From number not found' } },
  not_sms_capable: { status: 400, body: { message: 'Phone number is not SMS-capable' } },
  insufficient_balance: { status: 400, body: { message: 'Insufficient balance to send SMS' } },
  send_failed: (r) => ({ status: 500, body: { message: 'Failed to send SMS', error: r.reason } }),
};

export const SMS_NOT_FOUND: Answer = { status: 404, body: { message: 'SMS not found.' } };

/** Provider ingress: a report whose signature does not hold. */
export const INVALID_SIGNATURE: Answer = { status: 403, body: { error: 'Invalid signature.' } };
