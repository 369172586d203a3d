import { checkToolEndpoint, checkToolItems } from './tool-messages';

const strict = { requireHttps: false, allowPrivate: false };

describe('checkToolEndpoint', () => {
  const VALID_URL = 'The endpoint must be a valid URL.';
  const PUBLIC = 'The endpoint must be a public http or https URL.';
  const PLACEHOLDER = 'Placeholders are not allowed in the scheme or host of the endpoint.';

  it.each([
    ['https://api.example.com/orders/{order_id}?aid={{assistant_id}}', null],
    ['https://api.example.com/orders/{order_id}#{{tab}}', null],
    ['https://api.example.com:8443/{{ path }}', null],
    ['https://api.example.com?q={{a/b}}', null],
    ['http://api.example.com', null],
    ['not a url', VALID_URL],
    ['api.example.com/orders', VALID_URL],
    ['/orders/{order_id}', VALID_URL],
    [`https://api.example.com/${'a'.repeat(2040)}`, 'The endpoint may not be greater than 2048 characters.'],
    ['https://{{host}}/orders', PLACEHOLDER],
    ['https://api.{{env}}.example.com/orders', PLACEHOLDER],
    ['https://api.example.com:{port}/orders', PLACEHOLDER],
    ['{{scheme}}://api.example.com/orders', PLACEHOLDER],
    ['https://{{user}}@api.example.com/', PLACEHOLDER],
    ['https://{{a/b}}.example.com/', PLACEHOLDER],
    ['ftp://api.example.com/file', PUBLIC],
    ['https://user:pass@api.example.com/', PUBLIC],
    ['http://127.0.0.1/hook', PUBLIC],
    ['http://localhost:3000/hook', PUBLIC],
    ['http://169.254.169.254/latest/meta-data', PUBLIC],
    ['http://[::1]/', PUBLIC],
    ['http://metadata.google.internal/', PUBLIC],
  ])('%s → %p', (endpoint, message) => {
    expect(checkToolEndpoint(endpoint, strict)).toBe(message);
  });

  it('follows the policy switches', () => {
    expect(checkToolEndpoint('http://127.0.0.1:8080/x', { requireHttps: false, allowPrivate: true })).toBeNull();
    expect(checkToolEndpoint('http://api.example.com/x', { requireHttps: true, allowPrivate: false })).toBe(
      'The endpoint must be a public http or https URL.',
    );
  });
});

describe('checkToolItems', () => {
  const param = (name: string) => ({ name, type: 'string' as const, description: 'abc', required: false });

  it('accepts distinct keys and names', () => {
    expect(
      checkToolItems({
        staticFields: [
          { key: 'a', value: '' },
          { key: 'A', value: '' },
        ],
        schema: [param('a'), param('b')],
      }),
    ).toEqual({});
  });

  it('flags each repeat at its own index', () => {
    expect(
      checkToolItems({
        staticFields: [
          { key: 'a', value: '1' },
          { key: 'b', value: '' },
          { key: 'a', value: '2' },
          { key: 'a', value: '3' },
        ],
        schema: [param('x'), param('x')],
      }),
    ).toEqual({
      'static_fields.2.key': ['The static_fields.2.key has already been taken.'],
      'static_fields.3.key': ['The static_fields.3.key has already been taken.'],
      'schema.1.name': ['The schema.1.name has already been taken.'],
    });
  });
});
