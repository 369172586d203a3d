import { REPROVISIONING_TABLE, reprovisionPlan } from './reprovisioning';
import { SipTrunkField } from './sip-trunk';

describe('re-provisioning plan', () => {
  it.each<[SipTrunkField, boolean, boolean]>([
    ['sipUsername', true, true],
    ['sipPassword', true, true],
    ['sipAddress', false, true],
    ['phoneNumber', true, true],
    ['inboundAuthorizationType', true, false],
    ['allowedInboundIps', true, false],
    ['outboundProxy', false, true],
    ['sipCallingFormat', false, false],
    ['nickname', false, false],
    ['countryCode', false, false],
  ])('%s changed → inbound %p, outbound %p', (field, inbound, outbound) => {
    expect(reprovisionPlan([field])).toEqual({ inbound, outbound });
  });

  it('covers every field exactly once', () => {
    expect(Object.keys(REPROVISIONING_TABLE).sort()).toEqual([
      'allowedInboundIps',
      'countryCode',
      'inboundAuthorizationType',
      'nickname',
      'outboundProxy',
      'phoneNumber',
      'sipAddress',
      'sipCallingFormat',
      'sipPassword',
      'sipUsername',
    ]);
  });

  it.each<[SipTrunkField[], boolean, boolean]>([
    [[], false, false],
    [['nickname', 'countryCode', 'sipCallingFormat'], false, false],
    [['sipAddress', 'allowedInboundIps'], true, true],
    [['inboundAuthorizationType', 'allowedInboundIps'], true, false],
    [['outboundProxy', 'sipAddress', 'nickname'], false, true],
  ])('a side is re-created when any changed field marks it: %p', (fields, inbound, outbound) => {
    expect(reprovisionPlan(fields)).toEqual({ inbound, outbound });
  });
});
