import { buildToolRequest, ToolRequestSpec } from './tool-request';
import { ToolDefinition } from './tool';

const open = { requireHttps: false, allowPrivate: false };

function tool(overrides: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    id: 7,
    name: 'check_order',
    type: 'http',
    endpoint: 'https://api.example.com/orders',
    method: 'GET',
    bodyFormat: 'json',
    timeout: 10,
    headers: [],
    staticFields: [],
    schema: [],
    ...overrides,
  };
}

function build(
  t: Partial<ToolDefinition>,
  params: Record<string, unknown> = {},
  variables: Record<string, string> = {},
  extra: Partial<ToolRequestSpec> = {},
) {
  return buildToolRequest({
    tool: tool(t),
    params,
    variables: new Map(Object.entries(variables)),
    callId: 4812,
    userAgent: 'voiceplane/1.0.0',
    policy: open,
    ...extra,
  });
}

const str = (name: string, required = true) => ({ name, type: 'string' as const, description: 'a value', required });
const num = (name: string, required = true) => ({ name, type: 'number' as const, description: 'a value', required });
const flt = (name: string, required = true) => ({ name, type: 'float' as const, description: 'a value', required });
const bool = (name: string, required = true) => ({ name, type: 'boolean' as const, description: 'a value', required });

describe('URL substitution and encoding', () => {
  it.each([
    [
      'param in the path',
      'https://api.example.com/orders/{order_id}',
      { order_id: 'A-1001' },
      {},
      'https://api.example.com/orders/A-1001',
    ],
    [
      'param value is a URI component',
      'https://api.example.com/orders/{order_id}',
      { order_id: 'a/b c?d#e&f' },
      {},
      'https://api.example.com/orders/a%2Fb%20c%3Fd%23e%26f',
    ],
    [
      'non-ASCII param value',
      'https://api.example.com/q/{order_id}',
      { order_id: 'Müller ☎' },
      {},
      'https://api.example.com/q/M%C3%BCller%20%E2%98%8E',
    ],
    [
      'variable in the query',
      'https://api.example.com/x?aid={{assistant_id}}',
      {},
      { assistant_id: '101' },
      'https://api.example.com/x?aid=101',
    ],
    [
      'spaces inside the braces',
      'https://api.example.com/x?aid={{ assistant_id }}',
      {},
      { assistant_id: '101' },
      'https://api.example.com/x?aid=101',
    ],
    [
      'variable value is encoded',
      'https://api.example.com/x?n={{name}}',
      {},
      { name: 'Ann & Bob=1' },
      'https://api.example.com/x?n=Ann%20%26%20Bob%3D1',
    ],
    ['unknown variable becomes empty', 'https://api.example.com/x?n={{nope}}', {}, {}, 'https://api.example.com/x?n='],
    [
      'brace group that is not a parameter stays',
      'https://api.example.com/{other}/x',
      {},
      {},
      'https://api.example.com/%7Bother%7D/x',
    ],
    [
      'inserted values are not scanned again',
      'https://api.example.com/{order_id}',
      { order_id: '{{secret}}' },
      { secret: 's3cr3t' },
      'https://api.example.com/%7B%7Bsecret%7D%7D',
    ],
    [
      'a variable that looks like a param stays a variable (and the param is sent)',
      'https://api.example.com/{{order_id}}',
      { order_id: 'A' },
      { order_id: 'V' },
      'https://api.example.com/V?order_id=A',
    ],
    [
      'optional param not collected in the path becomes empty',
      'https://api.example.com/orders/{note}/x',
      {},
      {},
      'https://api.example.com/orders//x',
    ],
    [
      'lone surrogate is replaced, not thrown on',
      'https://api.example.com/{order_id}',
      { order_id: 'a\ud800b' },
      {},
      'https://api.example.com/a%EF%BF%BDb',
    ],
    [
      'variable in the fragment',
      'https://api.example.com/x#{{tab}}',
      {},
      { tab: 'a b' },
      'https://api.example.com/x#a%20b',
    ],
  ])('%s', (_case, endpoint, params, variables, url) => {
    const r = build({ endpoint, schema: [str('order_id', false), str('note', false)] }, params, variables);
    expect(r.url).toBe(url);
  });

  it('reports unknown variables once each: URL, static fields, then headers', () => {
    const r = build({
      endpoint: 'https://api.example.com/{{b}}?x={{a}}&y={{b}}',
      headers: [{ name: 'X-A', value: '{{c}}' }],
      staticFields: [{ key: 's', value: '{{a}}{{d}}' }],
    });
    expect(r.unresolvedVariables).toEqual(['b', 'a', 'd', 'c']);
  });
});

describe('where parameters and static fields go', () => {
  const schema = [str('order_id'), num('quantity'), bool('gift', false), str('note', false)];
  const statics = [
    { key: 'source', value: 'voice' },
    { key: 'campaign', value: '{{campaign}}' },
  ];

  it.each([
    [
      'GET',
      'https://api.example.com/orders/{order_id}',
      'https://api.example.com/orders/A-1?quantity=2&gift=true&source=voice&campaign=spring%20sale',
      null,
    ],
    [
      'DELETE',
      'https://api.example.com/orders/{order_id}?x=1',
      'https://api.example.com/orders/A-1?x=1&quantity=2&gift=true&source=voice&campaign=spring%20sale',
      null,
    ],
    [
      'GET',
      'https://api.example.com/orders/{order_id}?',
      'https://api.example.com/orders/A-1?quantity=2&gift=true&source=voice&campaign=spring%20sale',
      null,
    ],
    [
      'GET',
      'https://api.example.com/orders/{order_id}?a=1&#frag',
      'https://api.example.com/orders/A-1?a=1&quantity=2&gift=true&source=voice&campaign=spring%20sale#frag',
      null,
    ],
    [
      'POST',
      'https://api.example.com/orders/{order_id}',
      'https://api.example.com/orders/A-1',
      '{"quantity":2,"gift":true,"source":"voice","campaign":"spring sale"}',
    ],
    [
      'PUT',
      'https://api.example.com/orders',
      'https://api.example.com/orders',
      '{"order_id":"A-1","quantity":2,"gift":true,"source":"voice","campaign":"spring sale"}',
    ],
    [
      'PATCH',
      'https://api.example.com/orders',
      'https://api.example.com/orders',
      '{"order_id":"A-1","quantity":2,"gift":true,"source":"voice","campaign":"spring sale"}',
    ],
  ] as const)('%s %s', (method, endpoint, url, body) => {
    const r = build(
      { method, endpoint, schema, staticFields: statics },
      { order_id: 'A-1', quantity: '2', gift: 1 },
      { campaign: 'spring sale' },
    );
    expect(r).toMatchObject({
      method,
      url,
      body,
      omittedParams: ['note'],
      missingRequired: [],
      invalidParams: [],
      wouldSend: true,
    });
  });

  it('sends a form body with booleans as true/false and numbers in decimal', () => {
    const r = build(
      {
        method: 'POST',
        bodyFormat: 'form',
        schema: [str('order_id'), flt('amount'), bool('gift'), str('note', false)],
        staticFields: statics,
      },
      { order_id: 'A 1&2', amount: '12.50', gift: 'false', note: 'ü+=' },
      { campaign: 'x' },
    );
    expect(r.body).toBe('order_id=A+1%262&amount=12.5&gift=false&note=%C3%BC%2B%3D&source=voice&campaign=x');
    expect(r.headers).toContainEqual({ name: 'Content-Type', value: 'application/x-www-form-urlencoded' });
  });

  it('sends an empty JSON object when there is nothing to send', () => {
    expect(build({ method: 'POST' }).body).toBe('{}');
  });

  it('lets a static field win over a parameter of the same name, keeping the parameter position', () => {
    const r = build(
      { method: 'POST', schema: [str('source'), str('other')], staticFields: [{ key: 'source', value: 'voice' }] },
      { source: 'ai', other: 'o' },
    );
    expect(r.body).toBe('{"source":"voice","other":"o"}');
  });

  it('does not send a parameter again that the URL consumed, even when it was not collected', () => {
    const r = build(
      { method: 'POST', endpoint: 'https://api.example.com/{a}/{b}', schema: [str('a'), str('b', false), str('c')] },
      { a: 'x', c: 'y' },
    );
    expect(r.url).toBe('https://api.example.com/x/');
    expect(r.body).toBe('{"c":"y"}');
  });

  it('sends optional parameters only when collected (null counts as not collected)', () => {
    const r = build(
      { method: 'POST', schema: [str('a', false), num('b', false), str('c', false)] },
      { a: '', b: null },
    );
    expect(r.body).toBe('{"a":""}');
    expect(r.omittedParams).toEqual(['b', 'c']);
  });

  it('drops arguments the schema does not declare', () => {
    expect(build({ method: 'POST', schema: [str('a')] }, { a: '1', injected: 'x' }).body).toBe('{"a":"1"}');
  });

  it('substitutes variables in static values raw, never their keys', () => {
    const r = build({ method: 'POST', staticFields: [{ key: '{{k}}', value: 'a&b {{v}}' }] }, {}, { k: 'K', v: '/?#' });
    expect(r.body).toBe('{"{{k}}":"a&b /?#"}');
  });

  it('keeps a parameter placeholder in a static value as text', () => {
    expect(
      build({ method: 'POST', schema: [str('a')], staticFields: [{ key: 's', value: '{a}' }] }, { a: 'x' }).body,
    ).toBe('{"a":"x","s":"{a}"}');
  });
});

describe('parameter coercion', () => {
  it.each([
    ['string', 'abc', 'abc'],
    ['string', 12, '12'],
    ['string', 1.5, '1.5'],
    ['string', true, 'true'],
    ['string', '', ''],
    ['number', 42, 42],
    ['number', '42', 42],
    ['number', '-7', -7],
    ['number', ' 8 ', 8],
    ['number', 2.0, 2],
    ['float', 1.25, 1.25],
    ['float', '1.25', 1.25],
    ['float', '3', 3],
    ['float', '-.5', -0.5],
    ['float', '1e3', 1000],
    ['float', 7, 7],
    ['boolean', true, true],
    ['boolean', false, false],
    ['boolean', 'true', true],
    ['boolean', 'false', false],
    ['boolean', 1, true],
    ['boolean', 0, false],
  ] as const)('%s accepts %p as %p', (type, input, expected) => {
    const r = build(
      { method: 'POST', schema: [{ name: 'v', type, description: 'value', required: true }] },
      { v: input },
    );
    expect(r.invalidParams).toEqual([]);
    expect(JSON.parse(r.body as string)).toEqual({ v: expected });
  });

  it.each([
    ['string', { a: 1 }],
    ['string', ['x']],
    ['string', Number.NaN],
    ['number', 1.5],
    ['number', '1.5'],
    ['number', 'abc'],
    ['number', ''],
    ['number', true],
    ['number', '9007199254740993'],
    ['number', '0x10'],
    ['float', 'abc'],
    ['float', ''],
    ['float', false],
    ['float', '1,5'],
    ['float', Number.POSITIVE_INFINITY],
    ['boolean', 'yes'],
    ['boolean', 'TRUE'],
    ['boolean', 2],
    ['boolean', '1'],
    ['boolean', ''],
  ] as const)('%s rejects %p', (type, input) => {
    const r = build(
      { method: 'POST', schema: [{ name: 'v', type, description: 'value', required: false }] },
      { v: input },
    );
    expect(r.invalidParams).toEqual(['v']);
    expect(r.wouldSend).toBe(false);
  });

  it('lists missing required and invalid parameters together', () => {
    const r = build({ schema: [str('a'), num('b'), str('c', false)] }, { b: 'x' });
    expect(r).toMatchObject({ missingRequired: ['a'], invalidParams: ['b'], omittedParams: ['c'], wouldSend: false });
  });
});

describe('headers', () => {
  it('puts the defaults first, the tool headers in order, then the content type', () => {
    const r = build(
      {
        method: 'POST',
        headers: [
          { name: 'X-Key', value: 'abc' },
          { name: 'Authorization', value: 'Bearer {{token}}' },
        ],
      },
      {},
      { token: 't\r\nX-Evil: 1' },
    );
    expect(r.headers).toEqual([
      { name: 'Accept', value: 'application/json, */*;q=0.5' },
      { name: 'User-Agent', value: 'voiceplane/1.0.0' },
      { name: 'X-Voiceplane-Event', value: 'tool_call' },
      { name: 'X-Voiceplane-Call-Id', value: '4812' },
      { name: 'X-Voiceplane-Tool-Id', value: '7' },
      { name: 'X-Key', value: 'abc' },
      { name: 'Authorization', value: 'Bearer tX-Evil: 1' },
      { name: 'Content-Type', value: 'application/json; charset=utf-8' },
    ]);
  });

  it('lets a tool header replace a default in place, and its own Content-Type win', () => {
    const r = build({
      method: 'PUT',
      headers: [
        { name: 'content-type', value: 'application/vnd.api+json' },
        { name: 'accept', value: 'text/plain' },
      ],
    });
    expect(r.headers.slice(0, 1)).toEqual([{ name: 'Accept', value: 'text/plain' }]);
    expect(r.headers.filter((h) => h.name.toLowerCase() === 'content-type')).toEqual([
      { name: 'content-type', value: 'application/vnd.api+json' },
    ]);
  });

  it.each([
    'Host',
    'content-length',
    'Transfer-Encoding',
    'Connection',
    'Keep-Alive',
    'Upgrade',
    'TE',
    'Trailer',
    'Proxy-Authorization',
    'proxy-x',
    'webhook-id',
    'Webhook-Timestamp',
    'webhook-signature',
  ])('never takes %s from the tool', (name) => {
    const r = build({ headers: [{ name, value: 'x' }] });
    expect(r.headers.map((h) => h.name.toLowerCase())).not.toContain(name.toLowerCase());
  });

  it('omits the call id header outside a call and sends no content type without a body', () => {
    const r = build({ method: 'DELETE' }, {}, {}, { callId: null });
    expect(r.headers.map((h) => h.name)).toEqual([
      'Accept',
      'User-Agent',
      'X-Voiceplane-Event',
      'X-Voiceplane-Tool-Id',
    ]);
    expect(r.body).toBeNull();
  });

  it('never substitutes parameters in header values or header names', () => {
    const r = build(
      { schema: [str('a')], headers: [{ name: 'X-{{n}}', value: '{a}/{{v}}' }] },
      { a: '1' },
      { n: 'N', v: 'V' },
    );
    expect(r.headers).toContainEqual({ name: 'X-{{n}}', value: '{a}/V' });
  });
});

describe('target check', () => {
  it.each([
    ['https://api.example.com/x', open, { scheme: 'https', host: 'api.example.com', status: 'unchecked' }, true],
    ['http://127.0.0.1:8080/x', open, { scheme: 'http', host: '127.0.0.1', status: 'blocked' }, false],
    ['http://localhost/x', open, { scheme: 'http', host: 'localhost', status: 'blocked' }, false],
    ['http://[::1]/x', open, { scheme: 'http', host: '[::1]', status: 'blocked' }, false],
    [
      'http://127.0.0.1:8080/x',
      { requireHttps: false, allowPrivate: true },
      { scheme: 'http', host: '127.0.0.1', status: 'unchecked' },
      true,
    ],
    [
      'http://api.example.com/x',
      { requireHttps: true, allowPrivate: false },
      { scheme: 'http', host: 'api.example.com', status: 'blocked' },
      false,
    ],
    ['http://10.0.0.1/x', open, { scheme: 'http', host: '10.0.0.1', status: 'blocked' }, false],
  ])('%s', (endpoint, policy, targetCheck, wouldSend) => {
    const r = build({ endpoint }, {}, {}, { policy });
    expect(r.targetCheck).toEqual(targetCheck);
    expect(r.wouldSend).toBe(wouldSend);
  });

  it('names a host that only a value could make blocked as unchecked: DNS decides at send time', () => {
    expect(
      build({ endpoint: 'https://internal.example.com/{{path}}' }, {}, { path: '127.0.0.1' }).targetCheck.status,
    ).toBe('unchecked');
  });
});

it('refuses to build an automation tool', () => {
  expect(() => build({ type: 'automation', endpoint: null, method: null })).toThrow('Tool 7 is not an http tool.');
});
