import { isIpOrCidr, isSipHost } from './network-address';

describe('allowed inbound IP entries', () => {
  it.each([
    '203.0.113.10',
    '0.0.0.0',
    '255.255.255.255',
    '198.51.100.0/24',
    '10.0.0.0/8',
    '1.2.3.4/32',
    '1.2.3.4/0',
    '::1',
    '::',
    '2001:db8::1',
    '2001:0db8:0000:0000:0000:ff00:0042:8329',
    'fe80::1:2',
    '2001:db8::/32',
    '::ffff:192.0.2.1',
    '2001:db8::/128',
    '1::',
  ])('accepts %s', (v) => expect(isIpOrCidr(v)).toBe(true));

  it.each([
    '',
    '256.1.1.1',
    '1.2.3',
    '1.2.3.4.5',
    '01.2.3.4',
    '1.2.3.4/33',
    '1.2.3.4/',
    '2001:db8::/129',
    '2001:::1',
    ':::',
    '1:2:3:4:5:6:7:8:9',
    'example.com',
    '1.2.3.4 ',
    'g::1',
    '[::1]',
  ])('rejects %p', (v) => expect(isIpOrCidr(v)).toBe(false));
});

describe('sip_address', () => {
  it.each([
    'sip.carrier.example',
    'pbx',
    'SIP.Carrier.Example',
    'a-b.example.co.uk',
    '203.0.113.10',
    '2001:db8::1',
    '[2001:db8::1]',
    'x1.example',
    '123.example.com',
    `${'a'.repeat(63)}.example`,
  ])('accepts %s', (v) => expect(isSipHost(v)).toBe(true));

  it.each([
    'sip:carrier.example',
    'sips:carrier.example',
    'carrier.example:5060',
    '203.0.113.10:5060',
    '[2001:db8::1]:5060',
    'carrier.example/x',
    'http://carrier.example',
    'user@carrier.example',
    '-bad.example',
    'bad-.example',
    'a..b',
    '999.1.1.1',
    '1.2.3',
    `${'a'.repeat(64)}.example`,
    'under_score.example',
    '',
    'carrier.example.',
    ' carrier.example',
  ])('rejects %p', (v) => expect(isSipHost(v)).toBe(false));
});
