import { SequentialIds } from './ids';

describe('SequentialIds', () => {
  it('makes values of the real shapes, all distinct, in the order they were asked for', () => {
    const ids = new SequentialIds();

    expect([ids.token('vp_', 6), ids.secretBytes(4), ids.uuid(), ids.token('lease_', 22)]).toEqual([
      'vp_000001',
      'AAAAAg==',
      '00000000-0000-4000-8000-000000000003',
      'lease_0000000000000000000004',
    ]);
    expect(Buffer.from(ids.secretBytes(32), 'base64')).toHaveLength(32);
    expect(ids.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('counts in base62 and refuses a token too short to hold the count', () => {
    const ids = new SequentialIds();
    const tokens = Array.from({ length: 62 }, () => ids.token('t', 2));

    expect([tokens[0], tokens[8], tokens[9], tokens[61]]).toEqual(['t01', 't09', 't0A', 't10']);
    expect(() => ids.token('t', 1)).toThrow('1 base62 characters cannot hold token number 63');
  });
});
