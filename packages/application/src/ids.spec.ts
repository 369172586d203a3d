import { CryptoIds } from './ids';

describe('CryptoIds', () => {
  const ids = new CryptoIds();

  it('makes prefixed base62 tokens of the exact length', () => {
    for (let i = 0; i < 200; i++) expect(ids.token('vp_', 40)).toMatch(/^vp_[0-9A-Za-z]{40}$/);
    expect(ids.token('', 1)).toMatch(/^[0-9A-Za-z]$/);
  });

  it('spreads characters over the whole alphabet', () => {
    const seen = new Set(ids.token('', 5000));
    expect(seen.size).toBe(62);
  });

  it('does not repeat', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => ids.token('req_', 22)));
    expect(tokens.size).toBe(1000);
  });
});
