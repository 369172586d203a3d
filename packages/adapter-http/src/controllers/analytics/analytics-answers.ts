import { AnalyticsRangeRefusal } from '@voiceplane/domain';
import { AnswerTable } from '../../pipeline/answers';
import { validationBody } from '../../pipeline/families';

/** The calls dashboard: a range it cannot show is a validation answer on the field that makes it so. */
export const ANALYTICS_ANSWERS: AnswerTable<AnalyticsRangeRefusal> = {
  range_reversed: {
    status: 422,
    body: validationBody('standard', { to: ['The to must be a date after or equal to from.'] }),
  },
  range_too_long: ({ maxDays }) => ({
    status: 422,
    body: validationBody('standard', { from: [`The range may not be longer than ${maxDays} days.`] }),
  }),
};
