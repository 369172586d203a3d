import { outboundHeaders } from './outbound-headers';

describe('outboundHeaders', () => {
  it('orders User-Agent, event, caller headers, then signature and length', () => {
    const headers = outboundHeaders({
      userAgent: 'voiceplane/1.2.3',
      eventType: 'tool_call',
      headers: [
        { name: 'Accept', value: 'application/json' },
        { name: 'X-Tenant', value: 'a' },
      ],
      signing: { webhookId: 'tcl_1', timestamp: 1700000000, signature: 'v1,abc' },
      contentLength: 12,
    });
    expect(Object.entries(headers)).toEqual([
      ['User-Agent', 'voiceplane/1.2.3'],
      ['X-Voiceplane-Event', 'tool_call'],
      ['Accept', 'application/json'],
      ['X-Tenant', 'a'],
      ['webhook-id', 'tcl_1'],
      ['webhook-timestamp', '1700000000'],
      ['webhook-signature', 'v1,abc'],
      ['Content-Length', '12'],
    ]);
  });

  it('lets a later header replace an earlier one whatever its case, including the defaults', () => {
    const headers = outboundHeaders({
      userAgent: 'voiceplane/1.2.3',
      eventType: 'tool_call',
      headers: [
        { name: 'X-Tenant', value: 'a' },
        { name: 'x-tenant', value: 'b' },
        { name: 'user-agent', value: 'custom/1' },
        { name: 'x-voiceplane-event', value: 'other' },
      ],
      contentLength: null,
    });
    expect(headers).toEqual({ 'user-agent': 'custom/1', 'x-voiceplane-event': 'other', 'x-tenant': 'b' });
  });

  it('never lets the caller set framing or connection headers, nor the signature of a signed request', () => {
    const headers = outboundHeaders({
      userAgent: 'voiceplane/1.2.3',
      headers: [
        { name: 'Host', value: 'evil.example' },
        { name: 'Content-Length', value: '1' },
        { name: 'Transfer-Encoding', value: 'chunked' },
        { name: 'Connection', value: 'close' },
        { name: 'Keep-Alive', value: 'timeout=1' },
        { name: 'Upgrade', value: 'websocket' },
        { name: 'TE', value: 'trailers' },
        { name: 'Trailer', value: 'X' },
        { name: 'Webhook-Signature', value: 'v1,forged' },
      ],
      signing: { webhookId: 'msg_1', timestamp: 1, signature: 'v1,real' },
      contentLength: 5,
    });
    expect(headers).toEqual({
      'User-Agent': 'voiceplane/1.2.3',
      'webhook-id': 'msg_1',
      'webhook-timestamp': '1',
      'webhook-signature': 'v1,real',
      'Content-Length': '5',
    });
  });

  it('leaves out the event, signature and length when there are none', () => {
    expect(outboundHeaders({ userAgent: 'voiceplane/1.2.3', contentLength: null })).toEqual({
      'User-Agent': 'voiceplane/1.2.3',
    });
  });
});
