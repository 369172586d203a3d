import { FieldErrors, ReferenceDataRefusal } from '@voiceplane/domain';
import { ActivationFailure, GroupUpdateRefusal, SaveAssistantFailure, WebhookSwitchRefusal } from '@voiceplane/application';
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
export function groupAnswers(noun: 'Folder' | 'Label'): AnswerTable<GroupUpdateRefusal> {
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
