import { buildToolRequest } from './tool-request';
import {
  firstCharacters,
  substitutionWarnings,
  toolCallResult,
  TransportOutcome,
  unsentToolCallResult,
} from './tool-result';

const outcome = (o: Partial<TransportOutcome>): TransportOutcome => ({
  ok: true,
  statusCode: 200,
  body: '',
  durationMs: 182,
  error: null,
  ...o,
});

describe('result of a sent request', () => {
  it.each([
    [
      'JSON is re-serialised compactly',
      '{ "status": "shipped",\n  "eta": "2026-03-04" }',
      '{"status":"shipped","eta":"2026-03-04"}',
    ],
    ['a JSON array too', ' [1, 2,\n3] ', '[1,2,3]'],
    ['text stays text', 'Order A-1001 shipped.', 'Order A-1001 shipped.'],
    ['broken JSON stays as sent', '{"status": ', '{"status": '],
    ['HTML stays as sent', '<p>ok</p>', '<p>ok</p>'],
    ['an empty answer is empty', '', ''],
  ])('2xx: %s', (_case, body, content) => {
    expect(toolCallResult(outcome({ body }), 10, [])).toEqual({
      ok: true,
      statusCode: 200,
      content,
      truncated: false,
      durationMs: 182,
      error: null,
      warnings: [],
    });
  });

  it('cuts content at 8,000 characters and says so', () => {
    const r = toolCallResult(outcome({ body: 'a'.repeat(8_001) }), 10, []);
    expect(r.content).toBe(`${'a'.repeat(8_000)}…[truncated]`);
    expect(r.truncated).toBe(true);
    expect(toolCallResult(outcome({ body: 'a'.repeat(8_000) }), 10, []).truncated).toBe(false);
  });

  it('cuts after re-serialising, so whitespace does not count', () => {
    const body = `{"a": "${'x'.repeat(7_990)}"}`.replace(':', ':' + ' '.repeat(500));
    expect(toolCallResult(outcome({ body }), 10, []).truncated).toBe(false);
  });

  it('counts characters, not UTF-16 units, and never splits a pair', () => {
    const r = toolCallResult(outcome({ body: '☎'.repeat(7_999) + '😀😀' }), 10, []);
    expect(r.content).toBe(`${'☎'.repeat(7_999)}😀…[truncated]`);
  });

  it('answers a non-2xx with its status and the first 2,000 characters of the body', () => {
    const r = toolCallResult(
      outcome({ ok: false, statusCode: 404, body: `${'n'.repeat(2_000)}TAIL`, error: 'http_error' }),
      10,
      ['w'],
    );
    expect(r).toEqual({
      ok: false,
      statusCode: 404,
      truncated: true,
      durationMs: 182,
      error: 'http_error',
      warnings: ['w'],
      content: JSON.stringify({ error: 'http_error', status: 404, body: 'n'.repeat(2_000) }),
    });
    expect(
      toolCallResult(outcome({ ok: false, statusCode: 302, body: 'moved', error: 'http_error' }), 10, []).content,
    ).toBe('{"error":"http_error","status":302,"body":"moved"}');
  });

  it.each([
    [10, '{"error":"timeout","message":"The tool did not answer within 10 seconds."}'],
    [1, '{"error":"timeout","message":"The tool did not answer within 1 second."}'],
  ])('timeout after %i s', (seconds, content) => {
    expect(
      toolCallResult(
        outcome({ ok: false, statusCode: null, error: 'timeout', durationMs: seconds * 1000 }),
        seconds,
        [],
      ),
    ).toEqual({
      ok: false,
      statusCode: null,
      content,
      truncated: false,
      durationMs: seconds * 1000,
      error: 'timeout',
      warnings: [],
    });
  });

  it.each(['blocked_target', 'connection_failed', 'response_too_large'] as const)('%s', (error) => {
    expect(toolCallResult(outcome({ ok: false, statusCode: null, error, durationMs: 3 }), 10, [])).toEqual({
      ok: false,
      statusCode: null,
      content: `{"error":"${error}"}`,
      truncated: false,
      durationMs: 3,
      error,
      warnings: [],
    });
  });
});

describe('result of a request that was not sent', () => {
  const tool = {
    id: 1,
    name: 't',
    type: 'http' as const,
    endpoint: 'https://api.example.com/{{v}}',
    method: 'GET' as const,
    bodyFormat: 'json' as const,
    timeout: 10,
    headers: [],
    staticFields: [],
    schema: [
      { name: 'order_id', type: 'string' as const, description: 'abc', required: true },
      { name: 'qty', type: 'number' as const, description: 'abc', required: false },
    ],
  };
  const request = (params: Record<string, unknown>, endpoint = tool.endpoint) =>
    buildToolRequest({
      tool: { ...tool, endpoint },
      params,
      variables: new Map(),
      callId: null,
      userAgent: 'ua',
      policy: { requireHttps: false, allowPrivate: false },
    });

  it.each([
    [{}, { error: 'missing_params', missing: ['order_id'] }],
    [
      { order_id: 'A', qty: 'x' },
      { error: 'invalid_params', invalid: ['qty'] },
    ],
    [{ qty: 'x' }, { error: 'missing_params', missing: ['order_id'], invalid: ['qty'] }],
  ])('params %p', (params, content) => {
    const r = unsentToolCallResult(request(params), []);
    expect(r).toEqual({
      ok: false,
      statusCode: null,
      content: JSON.stringify(content),
      truncated: false,
      durationMs: 0,
      error: content.error,
      warnings: [],
    });
  });

  it('a blocked target', () => {
    expect(unsentToolCallResult(request({ order_id: 'A' }, 'http://127.0.0.1/'), []).content).toBe(
      '{"error":"blocked_target"}',
    );
  });

  it('warns about every unknown variable', () => {
    expect(substitutionWarnings(request({ order_id: 'A' }))).toEqual([
      'Unknown variable "v" was replaced by an empty string.',
    ]);
  });
});

it.each([
  ['', 3, '', false],
  ['abc', 3, 'abc', false],
  ['abcd', 3, 'abc', true],
  ['😀😀', 1, '😀', true],
  ['😀😀', 2, '😀😀', false],
  ['a\ud800b', 2, 'a\ud800', true],
])('firstCharacters(%p, %i)', (text, limit, cut, truncated) => {
  expect(firstCharacters(text, limit)).toEqual({ text: cut, truncated });
});
