import {
  checkTargetUrl,
  isBlockedAddress,
  isBlockedHostName,
  MAX_TARGET_URL_LENGTH,
  TargetUrlPolicy,
} from './target-policy';

const strict: TargetUrlPolicy = { requireHttps: false, allowPrivate: false };

describe('isBlockedAddress', () => {
  // Each range is pinned at both edges and just outside them, so a wrong prefix length shows.
  it.each([
    ['0.0.0.0', true],
    ['0.255.255.255', true],
    ['1.0.0.0', false],
    ['9.255.255.255', false],
    ['10.0.0.0', true],
    ['10.255.255.255', true],
    ['11.0.0.0', false],
    ['100.63.255.255', false],
    ['100.64.0.0', true],
    ['100.127.255.255', true],
    ['100.128.0.0', false],
    ['126.255.255.255', false],
    ['127.0.0.1', true],
    ['127.255.255.255', true],
    ['128.0.0.0', false],
    ['169.253.255.255', false],
    ['169.254.0.0', true],
    ['169.254.169.254', true],
    ['169.255.0.0', false],
    ['172.15.255.255', false],
    ['172.16.0.0', true],
    ['172.31.255.255', true],
    ['172.32.0.0', false],
    ['191.255.255.255', false],
    ['192.0.0.0', true],
    ['192.0.0.255', true],
    ['192.0.1.0', false],
    ['192.0.2.1', false],
    ['192.167.255.255', false],
    ['192.168.0.0', true],
    ['192.168.255.255', true],
    ['192.169.0.0', false],
    ['198.17.255.255', false],
    ['198.18.0.0', true],
    ['198.19.255.255', true],
    ['198.20.0.0', false],
    ['223.255.255.255', false],
    ['224.0.0.0', true],
    ['239.255.255.255', true],
    ['240.0.0.0', true],
    ['255.255.255.255', true],
    ['8.8.8.8', false],
    ['1.1.1.1', false],
    ['93.184.216.34', false],
  ])('IPv4 %s → %s', (ip, blocked) => {
    expect(isBlockedAddress(ip)).toBe(blocked);
  });

  it.each([
    ['::', true],
    ['0:0:0:0:0:0:0:0', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['[::1]', true],
    ['::8.8.8.8', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::FFFF:7F00:0001', true],
    ['0:0:0:0:0:ffff:7f00:1', true],
    ['::ffff:a00:1', true],
    ['::ffff:169.254.169.254', true],
    ['::ffff:8.8.8.8', false],
    ['::ffff:808:808', false],
    ['64:ff9b::8.8.8.8', true],
    ['64:ff9b::1', true],
    ['64:ff9b:1::1', false],
    ['fbff:ffff::1', false],
    ['fc00::1', true],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['fe7f::1', false],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['febf::1', true],
    ['fec0::1', false],
    ['ff00::', true],
    ['ff02::1', true],
    ['2001:4860:4860::8888', false],
    ['2606:4700:4700::1111', false],
    ['2001:db8:0:0:1:0:0:1', false],
  ])('IPv6 %s → %s', (ip, blocked) => {
    expect(isBlockedAddress(ip)).toBe(blocked);
  });

  it.each([
    ['0x7f.1', true],
    ['2130706433', true],
    ['0177.0.0.1', true],
    ['127.1', true],
    ['0x7f000001', true],
    ['0xa9.0xfe.0xa9.0xfe', true],
    ['0x08080808', false],
    ['134744072', false],
  ])('reads the odd IPv4 spelling %s as the address inet_aton would (blocked: %s)', (ip, blocked) => {
    expect(isBlockedAddress(ip)).toBe(blocked);
  });

  it.each([
    '',
    'example.com',
    '1.2.3.4.5',
    '256.0.0.1',
    '08.0.0.1',
    '::g',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    '::ffff:1.2.3.04',
  ])('fails closed on %p, which is not an address', (text) => {
    expect(isBlockedAddress(text)).toBe(true);
  });
});

describe('isBlockedHostName', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'localhost.',
    'api.localhost',
    'a.b.localhost.',
    'metadata',
    'metadata.google.internal',
    'Metadata.Google.Internal.',
  ])('blocks %s', (name) => expect(isBlockedHostName(name)).toBe(true));

  it.each(['localhost.example.com', 'mylocalhost', 'metadata.example.com', 'google.internal', 'api.example.com'])(
    'allows %s',
    (name) => expect(isBlockedHostName(name)).toBe(false),
  );
});

describe('checkTargetUrl (write time)', () => {
  it('accepts a public URL template and returns it parsed with placeholders as x', () => {
    const check = checkTargetUrl(
      'https://api.example.com/orders/{order_id}?phone={{ customer_phone }}&t={{tenant}}',
      strict,
    );
    expect(check).toEqual({ ok: true, url: expect.any(URL) });
    if (!check.ok) throw new Error('unreachable');
    expect(check.url.hostname).toBe('api.example.com');
    expect(check.url.pathname).toBe('/orders/x');
    expect(check.url.search).toBe('?phone=x&t=x');
  });

  it('accepts a placeholder in the host: the resolved address is checked at send time', () => {
    expect(checkTargetUrl('https://{{tenant}}.example.com/hook', strict).ok).toBe(true);
  });

  it.each([
    ['/relative/path', 'not_absolute_url'],
    ['api.example.com/path', 'not_absolute_url'],
    ['', 'not_absolute_url'],
    ['http://', 'not_absolute_url'],
    ['https://exa mple.com/', 'not_absolute_url'],
    ['ftp://example.com/file', 'scheme_not_allowed'],
    ['file:///etc/passwd', 'scheme_not_allowed'],
    ['javascript:alert(1)', 'scheme_not_allowed'],
    ['gopher://example.com:70/', 'scheme_not_allowed'],
    ['https://user:pass@example.com/', 'userinfo_not_allowed'],
    ['https://user@example.com/', 'userinfo_not_allowed'],
    ['https://:secret@example.com/', 'userinfo_not_allowed'],
  ])('rejects %p: %s', (url, reason) => {
    expect(checkTargetUrl(url, strict)).toEqual({ ok: false, reason });
  });

  it('takes only https when https is required', () => {
    const policy = { requireHttps: true, allowPrivate: false };
    expect(checkTargetUrl('http://api.example.com/', policy)).toEqual({ ok: false, reason: 'scheme_not_allowed' });
    expect(checkTargetUrl('https://api.example.com/', policy).ok).toBe(true);
  });

  it(`allows exactly ${MAX_TARGET_URL_LENGTH} characters`, () => {
    const base = 'https://api.example.com/';
    const longest = base + 'a'.repeat(MAX_TARGET_URL_LENGTH - base.length);
    expect(checkTargetUrl(longest, strict).ok).toBe(true);
    expect(checkTargetUrl(longest + 'a', strict)).toEqual({ ok: false, reason: 'too_long' });
  });

  it.each([
    ['http://127.0.0.1/', '127.0.0.1'],
    ['http://10.1.2.3:8080/x', '10.1.2.3'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://0.0.0.0:3000/', '0.0.0.0'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://2130706433/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://0xa9fea9fe/', '169.254.169.254'],
    ['http://[::1]/', '[::1]'],
    ['http://[::]/', '[::]'],
    ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]'],
    ['http://[::ffff:7f00:1]/', '[::ffff:7f00:1]'],
    ['http://[fe80::1]/', '[fe80::1]'],
    ['http://[fd12:3456::1]:8443/', '[fd12:3456::1]'],
    ['http://[64:ff9b::a9fe:a9fe]/', '[64:ff9b::a9fe:a9fe]'],
  ])('rejects the literal address in %s (the parser sees %s)', (url, normalisedHost) => {
    // The check runs on what the URL parser made of the host, which is also what the sender dials.
    expect(new URL(url).hostname).toBe(normalisedHost);
    expect(checkTargetUrl(url, strict)).toEqual({ ok: false, reason: 'blocked_address' });
  });

  it.each([
    'http://localhost:3000/hook',
    'http://LOCALHOST./',
    'http://api.localhost/',
    'http://ｌｏｃａｌｈｏｓｔ/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://metadata.google.internal./',
    'http://metadata/',
  ])('rejects the host name in %s', (url) => {
    expect(checkTargetUrl(url, strict)).toEqual({ ok: false, reason: 'blocked_host' });
  });

  it.each([
    'https://8.8.8.8/',
    'https://[2606:4700:4700::1111]/',
    'https://localhost.example.com/',
    'https://metadata.example.com/',
  ])('accepts the public target %s', (url) => {
    expect(checkTargetUrl(url, strict).ok).toBe(true);
  });

  it('lifts only the address and host checks when private targets are allowed', () => {
    const dev = { requireHttps: false, allowPrivate: true };
    expect(checkTargetUrl('http://127.0.0.1:8080/hook', dev).ok).toBe(true);
    expect(checkTargetUrl('http://localhost:8080/hook', dev).ok).toBe(true);
    expect(checkTargetUrl('http://[::1]:8080/hook', dev).ok).toBe(true);
    expect(checkTargetUrl('http://user:pass@127.0.0.1/', dev)).toEqual({ ok: false, reason: 'userinfo_not_allowed' });
    expect(checkTargetUrl('ftp://127.0.0.1/', dev)).toEqual({ ok: false, reason: 'scheme_not_allowed' });
    expect(checkTargetUrl('/relative', dev)).toEqual({ ok: false, reason: 'not_absolute_url' });
  });
});
