import { FieldErrors } from '@voiceplane/domain';
import { DeletePhoneNumberError, PurchaseError, SipTrunkWriteError } from '@voiceplane/application';
import { Answer, AnswerTable } from '../../pipeline/answers';
import { validationBody } from '../../pipeline/families';
import { fieldErrors } from '../../pipeline/field-messages';
import { SIP_TRUNK_FIELD_MESSAGES } from './sip-trunk-messages';

export const SIP_TRUNK_NOT_FOUND: Answer = { status: 404, body: { error: 'SIP trunk not found.' } };
/** Reading one SIP trunk. */
export const SIP_TRUNK_READ_ANSWERS: AnswerTable<'not_found'> = { not_found: SIP_TRUNK_NOT_FOUND };
export const PHONE_NUMBER_NOT_FOUND: Answer = { status: 404, body: { error: 'Phone number not found.' } };
export const CREATE_TRUNK_FAILED: Answer = {
  status: 500,
  body: { error: 'Failed to create SIP trunk. Please try again or contact support.' },
};
export const UPDATE_TRUNK_FAILED: Answer = {
  status: 500,
  body: { error: 'Failed to update SIP trunk. Please try again or contact support.' },
};

/** Create and update of a SIP trunk; each names its own provisioning failure. */
export function sipTrunkWriteAnswers(
  provisioningFailed: Answer,
  shapeErrors: FieldErrors = {},
): AnswerTable<SipTrunkWriteError> {
  return {
    not_found: SIP_TRUNK_NOT_FOUND,
    malformed: { status: 422, body: validationBody('standard', shapeErrors) },
    invalid: ({ problems }) => ({
      status: 422,
      body: validationBody('standard', fieldErrors(problems, SIP_TRUNK_FIELD_MESSAGES)),
    }),
    duplicate: {
      status: 409,
      body: { error: 'A SIP trunk with the same phone number, username, and address already exists.' },
    },
    provisioning_failed: provisioningFailed,
  };
}

/** Number search. */
export const NUMBER_SEARCH_ANSWERS: AnswerTable<'unavailable'> = {
  unavailable: { status: 502, body: { message: 'Number search is temporarily unavailable.' } },
};

/** Number purchase. */
export const PURCHASE_ANSWERS: AnswerTable<PurchaseError> = {
  not_available: { status: 400, body: { error: 'Phone number is not available.' } },
  address_required: {
    status: 400,
    body: { error: 'This number requires a registered address, which is not supported.' },
  },
  insufficient_balance: { status: 402, body: { error: 'Insufficient balance.' } },
  failed: { status: 500, body: { error: 'Failed to purchase phone number. Please try again or contact support.' } },
};

/** Releasing a number or deleting a SIP trunk. */
export const DELETE_NUMBER_ANSWERS: AnswerTable<DeletePhoneNumberError> = {
  not_found: PHONE_NUMBER_NOT_FOUND,
  failed: { status: 500, body: { error: 'Failed to delete phone number. Please try again or contact support.' } },
};

/** Why a sandbox fault cannot be armed. */
export type SandboxFaultRefusal = 'unknown_kind' | 'not_found';

export const SANDBOX_FAULT_ANSWERS: AnswerTable<SandboxFaultRefusal> = {
  unknown_kind: { status: 422, body: validationBody('standard', { kind: ['The selected kind is invalid.'] }) },
  not_found: { status: 404, body: { message: 'Not found.' } },
};

/** The `message` of each successful SIP-trunk and phone-number write. */
export const TELEPHONY_SUCCESS = {
  trunkCreated: 'SIP trunk created successfully.',
  trunkUpdated: 'SIP trunk updated successfully.',
  dryRun: 'Dry run: no changes were made.',
  numberPurchased: 'Phone number purchased successfully.',
  numberDeleted: 'Phone number deleted successfully.',
  numberUpdated: 'Phone number updated successfully.',
} as const;

/** Renaming a number. */
export const RENAME_NUMBER_ANSWERS: AnswerTable<'not_found'> = { not_found: PHONE_NUMBER_NOT_FOUND };
