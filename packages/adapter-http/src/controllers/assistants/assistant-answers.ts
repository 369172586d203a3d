import { FieldErrors, ReferenceDataRefusal } from '@voiceplane/domain';
import {
  ActivationFailure,
  FolderUpdateRefusal,
  SaveAssistantFailure,
  WebhookSwitchRefusal,
} from '@voiceplane/application';
import { Answer, AnswerTable } from '../../pipeline/answers';
import { validationBody } from '../../pipeline/families';
import { fieldErrors } from '../../pipeline/field-messages';
import { ACTIVATION_FIELD_MESSAGES, ASSISTANT_FIELD_MESSAGES, ASSISTANT_MESSAGES } from './assistant-messages';

export const ASSISTANT_NOT_FOUND: Answer = { status: 404, body: { message: 'Assistant not found' } };

const invalid = (errors: FieldErrors): Answer => ({ status: 422, body: validationBody('standard', errors) });

/** Create and update: shape errors the transport found come first, then the rules'. */
export function saveAnswers(shapeErrors: FieldErrors): AnswerTable<SaveAssistantFailure> {
  return {
    not_found: ASSISTANT_NOT_FOUND,
    invalid: ({ problems }) => invalid({ ...shapeErrors, ...fieldErrors(problems, ASSISTANT_FIELD_MESSAGES) }),
  };
}

/** Activation. */
export const ACTIVATION_ANSWERS: AnswerTable<ActivationFailure> = {
  not_found: ASSISTANT_NOT_FOUND,
  compliance_blocked: { status: 422, body: { message: 'The assistant is blocked for compliance review.' } },
  incomplete: ({ problems }) => invalid(fieldErrors(problems, ACTIVATION_FIELD_MESSAGES)),
};

/** Enabling the post-call webhook. */
export const WEBHOOK_SWITCH_ANSWERS: AnswerTable<WebhookSwitchRefusal> = {
  not_found: ASSISTANT_NOT_FOUND,
  blocked_url: invalid({ webhook_url: [ASSISTANT_MESSAGES.blockedUrl('webhook_url')] }),
};

/** Folders and labels, each with its own noun. */
export function folderAnswers(noun: 'Folder' | 'Label'): AnswerTable<FolderUpdateRefusal> {
  return {
    not_found: { status: 404, body: { message: `${noun} not found` } },
    name_taken: invalid({ name: ['The name has already been taken.'] }),
    invalid_fields: ({ errors }) => invalid(errors),
  };
}

/** The catalogue and the account's reference records. */
export const REFERENCE_DATA_ANSWERS: AnswerTable<ReferenceDataRefusal> = {
  unknown_language: invalid({ language_id: ['The selected language id is invalid.'] }),
};

/** The `message` of each successful assistant write. */
export const ASSISTANT_SUCCESS = {
  created: 'Assistant created successfully',
  updated: 'Assistant updated successfully',
  deleted: 'Assistant deleted successfully',
  activated: 'Assistant activated successfully',
  deactivated: 'Assistant deactivated successfully',
  webhookEnabled: 'Webhook enabled successfully',
  webhookDisabled: 'Webhook disabled successfully',
  inboundWebhookDisabled: 'Inbound webhook disabled successfully',
  conversationEndedWebhookEnabled: 'Conversation ended webhook enabled successfully',
  conversationEndedWebhookDisabled: 'Conversation ended webhook disabled successfully',
  complianceUpdated: 'Compliance status updated.',
} as const;

/** The `message` of each successful folder or label write, with its noun. */
export function folderSuccess(noun: 'Folder' | 'Label'): {
  readonly created: string;
  readonly updated: string;
  readonly deleted: string;
} {
  return {
    created: `${noun} created successfully`,
    updated: `${noun} updated successfully`,
    deleted: `${noun} deleted successfully`,
  };
}
