import { SecretCipher } from './secret-cipher';

describe('SecretCipher', () => {
  const cipher = new SecretCipher(async () => 'a deployment key of some length');

  it('round-trips, with a fresh nonce every time', async () => {
    const a = await cipher.encrypt('p@ss wörd');
    const b = await cipher.encrypt('p@ss wörd');
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('p@ss');
    expect(await cipher.decrypt(a)).toBe('p@ss wörd');
    expect(await cipher.decrypt(b)).toBe('p@ss wörd');
  });

  it('refuses a tampered value, another key and an unknown format', async () => {
    const sealed = await cipher.encrypt('secret');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] ^= 1;
    await expect(cipher.decrypt(`v1.${raw.toString('base64url')}`)).rejects.toThrow();
    await expect(new SecretCipher(async () => 'another key entirely').decrypt(sealed)).rejects.toThrow();
    await expect(cipher.decrypt('plain-text')).rejects.toThrow('Unrecognised secret format');
  });

  it('asks for the key once, and again after a failed lookup', async () => {
    let calls = 0;
    const flaky = new SecretCipher(async () => {
      calls += 1;
      if (calls === 1) throw new Error('settings unavailable');
      return 'the key';
    });
    await expect(flaky.encrypt('x')).rejects.toThrow('settings unavailable');
    const sealed = await flaky.encrypt('x');
    expect(await flaky.decrypt(sealed)).toBe('x');
    expect(calls).toBe(2);
  });
});
