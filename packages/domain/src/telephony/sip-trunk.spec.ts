import {
  changedFields,
  mergeSipTrunkChanges,
  newSipTrunkSettings,
  SipTrunkChanges,
  SipTrunkSettings,
} from './sip-trunk';

const IP_LIST_REQUIRED = 'ip_list_required';

const stored: SipTrunkSettings = {
  phoneNumber: '+493012345678',
  nickname: 'Berlin office',
  sipUsername: 'acme-trunk',
  sipPassword: 'secret-1',
  sipAddress: 'sip.carrier.example',
  sipCallingFormat: '+e164',
  inboundAuthorizationType: 'auth',
  allowedInboundIps: null,
  outboundProxy: false,
  countryCode: 'DE',
};
const ipStored: SipTrunkSettings = {
  ...stored,
  inboundAuthorizationType: 'ip',
  allowedInboundIps: ['203.0.113.10', '198.51.100.0/24'],
};

describe('new SIP trunk settings', () => {
  it('fills the defaults', () => {
    const r = newSipTrunkSettings({
      phoneNumber: '100',
      sipUsername: 'abc',
      sipPassword: 'xyz',
      sipAddress: '10.0.0.1',
    });
    expect(r).toEqual({
      ok: true,
      value: {
        phoneNumber: '100',
        nickname: null,
        sipUsername: 'abc',
        sipPassword: 'xyz',
        sipAddress: '10.0.0.1',
        sipCallingFormat: '+e164',
        inboundAuthorizationType: 'auth',
        allowedInboundIps: null,
        outboundProxy: false,
        countryCode: 'US',
      },
    });
  });

  it.each<[string, SipTrunkChanges, unknown]>([
    [
      'ip without a list',
      { inboundAuthorizationType: 'ip' },
      { ok: false, error: { allowed_inbound_ips: [IP_LIST_REQUIRED] } },
    ],
    [
      'ip with an empty list',
      { inboundAuthorizationType: 'ip', allowedInboundIps: [] },
      { ok: false, error: { allowed_inbound_ips: [IP_LIST_REQUIRED] } },
    ],
    [
      'ip with a null list',
      { inboundAuthorizationType: 'ip', allowedInboundIps: null },
      { ok: false, error: { allowed_inbound_ips: [IP_LIST_REQUIRED] } },
    ],
  ])('rejects %s', (_name, extra, expected) => {
    expect(
      newSipTrunkSettings({ phoneNumber: '100', sipUsername: 'abc', sipPassword: 'xyz', sipAddress: 'h', ...extra }),
    ).toEqual(expected);
  });

  it('keeps a de-duplicated list for ip and ignores a list sent with auth', () => {
    const ip = newSipTrunkSettings({
      phoneNumber: '1',
      sipUsername: 'abc',
      sipPassword: 'xyz',
      sipAddress: 'h',
      inboundAuthorizationType: 'ip',
      allowedInboundIps: ['1.2.3.4', '1.2.3.4', '::1'],
    });
    expect(ip.ok && ip.value.allowedInboundIps).toEqual(['1.2.3.4', '::1']);
    const auth = newSipTrunkSettings({
      phoneNumber: '1',
      sipUsername: 'abc',
      sipPassword: 'xyz',
      sipAddress: 'h',
      allowedInboundIps: ['1.2.3.4'],
    });
    expect(auth.ok && auth.value.allowedInboundIps).toBeNull();
  });
});

describe('merging an update into the stored trunk', () => {
  it('changes only the sent fields and reports what differs from the stored value', () => {
    const r = mergeSipTrunkChanges(stored, {
      nickname: null,
      sipUsername: 'acme-trunk',
      sipAddress: 'sip2.carrier.example',
    });
    expect(r).toEqual({
      ok: true,
      value: {
        settings: { ...stored, nickname: null, sipAddress: 'sip2.carrier.example' },
        changed: ['nickname', 'sipAddress'],
      },
    });
  });

  it('compares the password with the stored one', () => {
    expect(mergeSipTrunkChanges(stored, { sipPassword: 'secret-1' })).toEqual({
      ok: true,
      value: { settings: stored, changed: [] },
    });
    const r = mergeSipTrunkChanges(stored, { sipPassword: 'secret-2' });
    expect(r.ok && r.value.changed).toEqual(['sipPassword']);
  });

  it('switching to ip requires a list: sent or already stored', () => {
    expect(mergeSipTrunkChanges(stored, { inboundAuthorizationType: 'ip' })).toEqual({
      ok: false,
      error: { allowed_inbound_ips: [IP_LIST_REQUIRED] },
    });
    const r = mergeSipTrunkChanges(stored, { inboundAuthorizationType: 'ip', allowedInboundIps: ['203.0.113.10'] });
    expect(r.ok && r.value).toEqual({
      settings: { ...stored, inboundAuthorizationType: 'ip', allowedInboundIps: ['203.0.113.10'] },
      changed: ['inboundAuthorizationType', 'allowedInboundIps'],
    });
  });

  it('clearing the list of an ip trunk is refused', () => {
    expect(mergeSipTrunkChanges(ipStored, { allowedInboundIps: null })).toEqual({
      ok: false,
      error: { allowed_inbound_ips: [IP_LIST_REQUIRED] },
    });
    expect(mergeSipTrunkChanges(ipStored, { allowedInboundIps: [] })).toEqual({
      ok: false,
      error: { allowed_inbound_ips: [IP_LIST_REQUIRED] },
    });
  });

  it('switching to auth clears the list', () => {
    const r = mergeSipTrunkChanges(ipStored, { inboundAuthorizationType: 'auth', allowedInboundIps: ['9.9.9.9'] });
    expect(r.ok && r.value).toEqual({
      settings: { ...ipStored, inboundAuthorizationType: 'auth', allowedInboundIps: null },
      changed: ['inboundAuthorizationType', 'allowedInboundIps'],
    });
  });

  it('a list sent while the type stays auth is ignored', () => {
    expect(mergeSipTrunkChanges(stored, { allowedInboundIps: ['9.9.9.9'] })).toEqual({
      ok: true,
      value: { settings: stored, changed: [] },
    });
  });

  it('a reordered allow-list is stored but is no change for the provider', () => {
    const r = mergeSipTrunkChanges(ipStored, { allowedInboundIps: ['198.51.100.0/24', '203.0.113.10'] });
    expect(r.ok && r.value).toEqual({
      settings: { ...ipStored, allowedInboundIps: ['198.51.100.0/24', '203.0.113.10'] },
      changed: [],
    });
  });

  it('detects every field', () => {
    const next: SipTrunkSettings = {
      phoneNumber: '+4930999',
      nickname: 'x',
      sipUsername: 'u2',
      sipPassword: 'p2',
      sipAddress: 'a2',
      sipCallingFormat: 'national',
      inboundAuthorizationType: 'ip',
      allowedInboundIps: ['1.1.1.1'],
      outboundProxy: true,
      countryCode: 'US',
    };
    expect(changedFields(stored, next).sort()).toEqual(Object.keys(stored).sort());
  });
});
