import { CampaignStatusRefusal, CampaignWriteRefusal, LeadRefusal } from '@voiceplane/application';
import { CampaignStatus } from '@voiceplane/domain';
import { Answer, AnswerTable } from '../../pipeline/answers';
import { validationBody } from '../../pipeline/families';

export const CAMPAIGN_NOT_FOUND: Answer = { status: 404, body: { message: 'Campaign not found' } };
export const LEAD_NOT_FOUND: Answer = { status: 404, body: { message: 'Lead not found' } };
const ASSISTANT_NOT_OUTBOUND = 'Assistant not found or not an outbound assistant.';

const invalid = (r: { readonly errors: Record<string, string[]> }): Answer => ({
  status: 422,
  body: validationBody('standard', r.errors),
});

/** Create, update and delete of a campaign. */
export const CAMPAIGN_ANSWERS: AnswerTable<CampaignWriteRefusal> = {
  invalid_fields: invalid,
  assistant_not_found: { status: 404, body: { message: ASSISTANT_NOT_OUTBOUND } },
  campaign_not_found: CAMPAIGN_NOT_FOUND,
  plan_limit: {
    status: 403,
    body: { message: 'You have reached the maximum number of campaigns allowed by your plan.' },
  },
  already_in_progress: { status: 409, body: { message: 'Campaign is already in progress.' } },
};

type StatusRefusal = {
  readonly code: CampaignStatusRefusal;
  readonly status?: CampaignStatus;
  readonly campaignId?: number;
};

/** Start/stop answers carry `success: false` and, once the campaign is known, its unchanged status. */
const refusal =
  (status: number, message: string) =>
  (r: StatusRefusal): Answer => ({
    status,
    body:
      r.status === undefined
        ? { message, success: false }
        : { message, success: false, data: { campaign_id: r.campaignId, status: r.status } },
  });

export const CAMPAIGN_STATUS_ANSWERS: AnswerTable<StatusRefusal> = {
  campaign_not_found: { status: 404, body: { message: 'Campaign not found.', success: false } },
  already_in_progress: refusal(400, 'Campaign is already in progress.'),
  not_running: refusal(400, 'Campaign is not running.'),
  assistant_unavailable: refusal(400, ASSISTANT_NOT_OUTBOUND),
  compliance_blocked: {
    status: 403,
    body: { message: 'This assistant is unavailable for compliance review.', success: false },
  },
  no_caller_line: refusal(400, 'Your agent does not have a phone number setup.'),
  no_leads: refusal(400, 'No leads to call.'),
  insufficient_balance: refusal(400, 'Insufficient balance to start the campaign. Please top up your account.'),
};

export const INVALID_ACTION: Answer = {
  status: 400,
  body: { message: "Invalid action. Must be either 'start' or 'stop'.", success: false },
};

export const LEAD_ANSWERS: AnswerTable<LeadRefusal> = {
  invalid_fields: invalid,
  lead_not_found: LEAD_NOT_FOUND,
  lead_limit: { status: 422, body: { message: 'A campaign can hold at most 100000 leads.' } },
  being_called: { status: 409, body: { message: 'The lead is being called. Try again when the call has ended.' } },
};

/** A delete of a lead whose group is on a call has its own wording. */
export const LEAD_DELETE_ANSWERS: AnswerTable<LeadRefusal> = {
  ...LEAD_ANSWERS,
  being_called: { status: 409, body: { message: 'The lead is being called and cannot be deleted now.' } },
};

/** A bulk import: the campaign's own 404, or its lead limit with nothing stored. */
export const IMPORT_ANSWERS: AnswerTable<'campaign_not_found' | 'lead_limit'> = {
  campaign_not_found: CAMPAIGN_NOT_FOUND,
  lead_limit: LEAD_ANSWERS.lead_limit as Answer,
};
