import { decideIdempotentRequest, isStorableStatus, isValidIdempotencyKey } from './idempotency';

describe('idempotency decisions', () => {
  const done = { fingerprint: 'f1', state: 'done' as const, responseStatus: 201, responseBody: '{"a":1}' };

  it('processes a first request', () => expect(decideIdempotentRequest(null, 'f1')).toEqual({ kind: 'process' }));
  it('replays the stored answer for the same body', () =>
    expect(decideIdempotentRequest(done, 'f1')).toEqual({ kind: 'replay', status: 201, body: '{"a":1}' }));
  it('refuses the same key with another body', () =>
    expect(decideIdempotentRequest(done, 'f2')).toEqual({ kind: 'reused_with_other_body' }));
  it('reports a first request still running', () =>
    expect(decideIdempotentRequest({ ...done, state: 'in_flight' }, 'f1')).toEqual({ kind: 'in_flight' }));
  it('never carries out again a request whose effect committed but whose answer was lost', () => {
    const lost = { ...done, state: 'answer_lost' as const, responseStatus: null, responseBody: null };
    expect(decideIdempotentRequest(lost, 'f1')).toEqual({ kind: 'answer_lost' });
    expect(decideIdempotentRequest(lost, 'f2')).toEqual({ kind: 'reused_with_other_body' });
  });

  it.each([
    [200, true],
    [201, true],
    [422, true],
    [404, true],
    [409, false],
    [429, false],
    [500, false],
    [503, false],
  ])('status %p storable: %p', (status, storable) => expect(isStorableStatus(status)).toBe(storable));

  it.each([
    ['abc', true],
    ['', false],
    ['x'.repeat(255), true],
    ['x'.repeat(256), false],
    ['tab\tkey', false],
    ['ключ', false],
  ])('key %p valid: %p', (key, valid) => expect(isValidIdempotencyKey(key)).toBe(valid));
});
