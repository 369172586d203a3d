import { SmsMessage } from '@voiceplane/application';

/** Famulor's `sms_id` is a string id; ours is the log's integer id behind a prefix, accepted back on reads. */
export const smsIdOf = (id: number) => `SMS_${id}`;

/** The `data` of Famulor's send answer (plus our integer `id`). */
export function presentSentSms(m: SmsMessage) {
  return {
    id: m.id,
    sms_id: smsIdOf(m.id),
    from: m.from,
    to: m.to,
    body: m.body,
    segments: m.segments,
    cost: m.cost,
    currency: 'USD',
    status: m.status,
  };
}

/** An item of the SMS log: the send's fields with what became of it. */
export function presentSms(m: SmsMessage) {
  return {
    ...presentSentSms(m),
    phone_number_id: m.phoneNumberId,
    encoding: m.encoding,
    error_code: m.errorCode,
    error_message: m.errorMessage,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  };
}
