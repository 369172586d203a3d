import { SipTrunkProblem } from '@voiceplane/domain';
import { FieldMessages } from '../../pipeline/field-messages';

export const SIP_ADDRESS_MESSAGE = 'The sip address must be a host name or IP address without port.';

/** The merged-state rule. */
export const SIP_TRUNK_FIELD_MESSAGES: FieldMessages<SipTrunkProblem> = {
  ip_list_required: () => 'At least one allowed IP address is required when authorization type is "ip".',
};
