import { CryptoIds } from './ids';

describe('CryptoIds', () => {
  const ids = new CryptoIds();

  it('makes prefixed base62 tokens and secret tokens of the exact length', () => {
    for (let i = 0; i < 200; i++) expect(ids.token('req_', 22)).toMatch(/^req_[0-9A-Za-z]{22}$/);
    for (let i = 0; i < 200; i++) expect(ids.secretToken('vp_', 40)).toMatch(/^vp_[0-9A-Za-z]{40}$/);
    expect(ids.token('', 1)).toMatch(/^[0-9A-Za-z]$/);
    expect(ids.secretToken('', 1)).toMatch(/^[0-9A-Za-z]$/);
  });

  it('spreads characters over the whole alphabet, across the pooled blocks too', () => {
    expect(new Set(ids.token('', 9000)).size).toBe(62);
    expect(new Set(ids.secretToken('', 5000)).size).toBe(62);
  });

  it('does not repeat', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => ids.token('req_', 22)));
    const secrets = new Set(Array.from({ length: 1000 }, () => ids.secretToken('vp_', 40)));
    expect([tokens.size, secrets.size]).toEqual([1000, 1000]);
  });
});
