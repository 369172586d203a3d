import { ReplayRefusal } from '@voiceplane/application';
import { Answer, AnswerTable } from '../../pipeline/answers';
import { validationBody } from '../../pipeline/families';

export const DELIVERY_NOT_FOUND: Answer = { status: 404, body: { message: 'Delivery not found' } };

/** Delivery log, replay and test sends (CONTRACT §12); `blocked_url` is a test target outside the outbound policy. */
export const WEBHOOK_ANSWERS: AnswerTable<ReplayRefusal | 'blocked_url'> = {
  not_found: DELIVERY_NOT_FOUND,
  already_pending: { status: 409, body: { message: 'Delivery is already pending.' } },
  blocked_url: { status: 422, body: validationBody('standard', { url: ['The url must be a public http or https URL.'] }) },
};
