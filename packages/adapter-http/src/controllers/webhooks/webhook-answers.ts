import { ReplayRefusal } from '@voiceplane/application';
import { Answer, AnswerTable } from '../../pipeline/answers';

export const DELIVERY_NOT_FOUND: Answer = { status: 404, body: { message: 'Delivery not found' } };

/** Delivery log and replay; a test target outside the outbound policy is a field error of the body. */
export const WEBHOOK_ANSWERS: AnswerTable<ReplayRefusal> = {
  not_found: DELIVERY_NOT_FOUND,
  already_pending: { status: 409, body: { message: 'Delivery is already pending.' } },
};

/** The `message` of each successful delivery-log or signing-secret write. */
export const WEBHOOK_SUCCESS = {
  replayQueued: 'Delivery queued for replay.',
  secretRotated: 'Signing secret rotated.',
} as const;
