import { STALE_AFTER_MS, staleReason } from './stale-scratch-databases';

const here = { host: 'ci-1', pidNamespace: 'pid:[1]', pid: 100, created: Date.UTC(2030, 0, 1) };
const note = (creator: Partial<typeof here>) => JSON.stringify({ ...here, created: here.created - 60_000, ...creator });
const alive = (pids: number[]) => (pid: number) => pids.includes(pid);
const candidate = (over: { note?: string | null; sessions?: number; createdAt?: Date | null }) => ({
  name: 'vp_test_x',
  note: null,
  sessions: 0,
  createdAt: null,
  ...over,
});

describe('staleReason', () => {
  it('drops an unused database whose creator process on this host is gone', () => {
    expect(staleReason(candidate({ note: note({ pid: 7 }) }), here, alive([]))).toBe('its creator (process 7) is gone');
  });

  it('keeps a database whose creator still runs, or that someone is connected to', () => {
    expect(staleReason(candidate({ note: note({ pid: 7 }) }), here, alive([7]))).toBeNull();
    expect(staleReason(candidate({ note: note({ pid: 7 }), sessions: 1 }), here, alive([]))).toBeNull();
  });

  it('judges a creator on another host or PID namespace by age only', () => {
    expect(staleReason(candidate({ note: note({ pid: 7, host: 'ci-2' }) }), here, alive([]))).toBeNull();
    expect(staleReason(candidate({ note: note({ pid: 7, pidNamespace: 'pid:[2]' }) }), here, alive([]))).toBeNull();
    const old = note({ pid: 7, host: 'ci-2', created: here.created - STALE_AFTER_MS - 60_000 });
    expect(staleReason(candidate({ note: old }), here, alive([]))).toBe('created 61 minutes ago');
    expect(staleReason(candidate({ note: old, sessions: 2 }), here, alive([]))).toBeNull();
  });

  it('judges a database without a creator note by the age of its files, and keeps it when that is unknown', () => {
    expect(staleReason(candidate({ createdAt: new Date(here.created - STALE_AFTER_MS - 1) }), here, alive([]))).toBe(
      'created 60 minutes ago',
    );
    expect(staleReason(candidate({ createdAt: new Date(here.created - 60_000) }), here, alive([]))).toBeNull();
    expect(staleReason(candidate({}), here, alive([]))).toBeNull();
    expect(staleReason(candidate({ note: 'not json' }), here, alive([]))).toBeNull();
  });
});
