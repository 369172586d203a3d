import { completePlan } from '@voiceplane/domain';
import { Principal } from '../ports';
import { PrincipalCache } from './principal-cache';

const at = (time: string) => new Date(`2030-01-01T${time}Z`);
const principal = (userId: number, over: Partial<Principal> = {}): Principal => ({
  userId,
  tokenKind: 'api_key',
  tokenId: userId * 10,
  plan: completePlan({}),
  lastUsedAt: null,
  expiresAt: null,
  ...over,
});

function cache(live = true) {
  let isLive = live;
  const c = new PrincipalCache(
    () => isLive,
    async () => undefined,
    { ttlMs: 60_000, maxEntries: 3 },
  );
  return { c, setLive: (v: boolean) => (isLive = v) };
}

describe('PrincipalCache', () => {
  it('serves what was stored until the user is forgotten', async () => {
    const { c } = cache();
    c.put('h1', principal(1), c.stamp(), at('10:00:00'));
    c.put('h2', principal(2), c.stamp(), at('10:00:00'));
    expect((await c.get('h1', at('10:00:01')))?.userId).toBe(1);

    c.forgetUser(1);

    expect(await c.get('h1', at('10:00:01'))).toBeUndefined();
    expect((await c.get('h2', at('10:00:01')))?.userId).toBe(2);
  });

  it('does not store what a lookup read before a forget', async () => {
    const { c } = cache();
    const stamp = c.stamp();
    c.forgetUser(7);
    c.put('h1', principal(1), stamp, at('10:00:00'));

    expect(await c.get('h1', at('10:00:00'))).toBeUndefined();
  });

  it('neither serves nor stores while notifications do not arrive', async () => {
    const { c, setLive } = cache();
    c.put('h1', principal(1), c.stamp(), at('10:00:00'));
    setLive(false);
    expect(await c.get('h1', at('10:00:00'))).toBeUndefined();
    c.put('h2', principal(2), c.stamp(), at('10:00:00'));
    setLive(true);

    expect(await c.get('h2', at('10:00:00'))).toBeUndefined();
  });

  it('keeps an entry no longer than the TTL, nor past the end of its session', async () => {
    const { c } = cache();
    c.put('key', principal(1), c.stamp(), at('10:00:00'));
    c.put('session', principal(2, { tokenKind: 'session', expiresAt: at('10:00:05') }), c.stamp(), at('10:00:00'));

    expect(await c.get('session', at('10:00:04.999'))).toBeDefined();
    expect(await c.get('session', at('10:00:05'))).toBeUndefined();
    expect(await c.get('key', at('10:00:59.999'))).toBeDefined();
    expect(await c.get('key', at('10:01:00'))).toBeUndefined();
  });

  it('serves a hit only once the changes committed before it have been heard', async () => {
    let heard: () => void = () => undefined;
    const c = new PrincipalCache(
      () => true,
      () => new Promise<void>((resolve) => (heard = () => resolve())),
      { ttlMs: 60_000, maxEntries: 10 },
    );
    c.put('h1', principal(1), c.stamp(), at('10:00:00'));
    const served = c.get('h1', at('10:00:00'));
    c.forgetUser(1);
    heard();

    expect(await served).toBeUndefined();
  });

  it('holds at most maxEntries, dropping the oldest', async () => {
    const { c } = cache();
    for (let i = 1; i <= 4; i++) c.put(`h${i}`, principal(i), c.stamp(), at('10:00:00'));

    expect(await c.get('h1', at('10:00:00'))).toBeUndefined();
    expect((await c.get('h4', at('10:00:00')))?.userId).toBe(4);
  });
});
